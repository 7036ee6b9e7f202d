import type { BaseEvent } from "@ag-ui/core";
import type { FinishRun, RunStore } from "../store/index.ts";
import type { SequencedEvent } from "./sequence-events.ts";

/** How a run ended, as the store records it (its last events travel with it). */
export type RunEnding = Omit<FinishRun, "runId" | "events">;

/** Where a run's stream stands (`RunHub.tail`). */
export interface RunTail {
  /** The last event number sent to followers so far. */
  lastSeq: number;
  /** False once the terminal event is out. */
  live: boolean;
}

/** The producer side of one run's event stream. */
export interface RunChannel {
  readonly runId: string;
  /** Numbers the event, hands it to every follower and queues it for the store. */
  emit(event: BaseEvent): void;
  /**
   * Ends the run: stores its last events, the terminal one included, and how
   * it ended, in one write; only then do followers see the terminal event, so
   * a client that hears RUN_FINISHED can start the next run at once. When the
   * store refuses, followers get a RUN_ERROR `store_unavailable` instead (a
   * RUN_ERROR `instance_lost` is kept: it already says the store was lost)
   * and the hub keeps trying in the background until the store takes that end.
   */
  end(terminal: BaseEvent, ending: RunEnding): Promise<void>;
}

/**
 * Fans a run's events out to whoever follows it, and writes them to the store.
 *
 * Events are handed on in batches, once per turn of the event loop, and
 * stored in pages, every few milliseconds: a burst of tokens becomes one write
 * to the socket and one transaction, not thousands. Followers never get more
 * than UNSTORED_EVENT_LIMIT events ahead of the store, so a crash leaves a
 * bounded gap that whoever ends the run skips. An event stays in memory until
 * it is stored and every follower has it; a follower that joins late (a
 * reconnect) reads the older part from the store, so it misses nothing. This
 * is the in-process fan-out (createRunHub); several server instances put a
 * shared bus behind the same methods (createRedisHub). `isLive`, `lastSeq` and
 * `isEnding` answer for this process only, at once; `tail` and `follow` for
 * every instance on the bus.
 */
export interface RunHub {
  /** Opens a run's stream; `stored` are its first events, already in the store (RUN_STARTED). */
  open(run: { runId: string; threadId: string; stored: SequencedEvent[] }): RunChannel;
  /** Whether the run's stream is open in this process. */
  isLive(runId: string): boolean;
  /** The run's last event number, while this process holds its stream; undefined otherwise. */
  lastSeq(runId: string): number | undefined;
  /**
   * Where the run's stream stands on whichever instance executes it (this
   * process, or another one sharing the hub's bus): its last event number sent
   * so far, and whether more may follow. Undefined when no instance holds the
   * stream: the run ended and the store has it all, or it never started here.
   * Reconnects ask it, since the store lags the stream by a few milliseconds.
   */
  tail(runId: string): Promise<RunTail | undefined>;
  /** Whether this process holds the run's end, not yet stored. */
  isEnding(runId: string): boolean;
  /** The run's events with `seq > afterSeq`, in batches, until its stream ends. */
  follow(runId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<SequencedEvent[]>;
  /**
   * Stores now the ends of the thread's runs the store refused before. A new
   * run calls it first, so a run whose end waits in memory never holds its
   * thread; throws `store_unavailable` while the store still refuses.
   */
  settleThread(threadId: string): Promise<void>;
  /**
   * Asks whichever instance on the hub's bus executes the run to cancel it;
   * true once that instance says it did, or once the request is recorded
   * where it looks for them (the store, while the bus is down or that
   * instance did not answer in time): the run then ends as `cancelled`
   * there. False when the run was not running. Absent on the in-process hub,
   * where `Runner.cancel` is all there is.
   */
  requestCancel?(runId: string): Promise<boolean>;
  /** Sets what stops a run of this process when another instance asks (`requestCancel`); it answers whether the run was running here. */
  serveCancels?(cancel: (runId: string) => boolean): void;
  /** Tries once more to store every end still waiting, and stops retrying. */
  close(): Promise<void>;
}

/** Where a hub says what went wrong (the app's logger). */
export interface HubLogger {
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/**
 * Makes the hub an app runs on (`createTetherApp`'s `hub` option), at start:
 * from the in-process hub that executes this instance's runs, the store every
 * instance shares, and the app's logger. `redisHub({ url })` from
 * `@tether-agent/tether/redis` is one.
 */
export type RunHubFactory = (shared: { local: RunHub; store: RunStore; logger: HubLogger }) => Promise<RunHub>;
