import { findAgentFor, type Agent } from "../agent/index.ts";
import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { TetherError, toTetherError } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { RunStore } from "../store/index.ts";
import { movedOnMeanwhile } from "../store/shared/index.ts";
import { sequenceEvents, type RunChannel, type RunHub, type SequencedEvent } from "../hub/index.ts";
import type { IdSource } from "./ids.ts";
import { runLoop } from "./loop.ts";
import { prepareRun, type NewRun, type PreparedRun } from "./prepare-run.ts";
import type { ObserveRun, RunObserver } from "./run-observer.ts";

export interface Runner {
  /**
   * Checks a run request and starts the run. Everything that can be refused
   * is refused here, before anything is stored and before the stream opens.
   * The run then goes on by itself: a client that goes away does not stop it.
   *
   * A request whose only news is an answer already acted on (a double click,
   * a retry), or being acted on by the thread's running run (the same outcome
   * from two tabs at once, a retry racing the first request), starts
   * nothing: `runId` is then that run, whose events, live or stored, are the
   * same result.
   */
  start(user: TetherUser, agentId: string, input: RunAgentInput): Promise<{ runId: string; threadId: string; repeat: boolean }>;
  /** Asks a running run to stop; it ends with outcome `cancelled`. */
  cancel(runId: string): boolean;
  /**
   * Stops every run executing here, as a cancel stops one, but each ends with
   * RUN_ERROR `reason` (this server lost its hold on the store: another
   * instance may end its runs at any moment). Returns how many it stopped.
   */
  stopAll(reason: TetherError): number;
  /** Resolves when the run's loop has ended (immediately if it is not running here). */
  settled(runId: string): Promise<void>;
  /** Cancels nothing; waits for every running run to end. */
  drain(): Promise<void>;
}

export interface RunnerOptions {
  /** Told about a run whose loop failed where no client can hear (the store failing while it ended). */
  onLoopError?(error: unknown, runId: string): void;
  agents: Map<string, Agent>;
  store: RunStore;
  hub: RunHub;
  ids: IdSource;
  /** Signs stateless interrupts (client history mode); keep it across restarts. */
  secret: string;
  now?: () => Date;
  /** Whether runs write record facts (tools offered, model calls, upstream events). Default true. */
  records?: boolean;
  /** Makes each run's observer (telemetry); absent, runs have none. */
  observeRun?: ObserveRun;
  /** Told of a model error that ends a run (for the server's log: the provider's own words are not the client's). */
  onModelError?(error: TetherError, runId: string): void;
}

export function createRunner(options: RunnerOptions): Runner {
  const { agents, store, hub, ids } = options;
  const now = options.now ?? (() => new Date());
  // When an approval lapses is judged alike by every instance: by the clock of a store they share, else by this one's.
  const approvalClock = store.now ? () => store.now!() : async () => now();
  const records = options.records ?? true;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();

  /**
   * Stores the run's beginning (the observer hears of a refusal). When another
   * request began a run on the thread between this one's checks and its write
   * (the same outcome from two tabs at once, a retry racing the first), the
   * request is checked again: it may be that run's own, and then follows it.
   */
  async function begin(prepared: NewRun, prepareAgain: () => Promise<PreparedRun>): Promise<Begun | RepeatedRun> {
    const opening = sequenceEvents(openingEvents(prepared), 1);
    const observer = options.observeRun?.(prepared);
    const facts = [...(records ? (prepared.begin.facts ?? []) : []), ...(observer?.startFacts ?? [])];
    try {
      await store.beginRun({ ...prepared.begin, facts, events: opening });
    } catch (error) {
      observer?.end({ status: "error", error: toTetherError(error) });
      if (!movedOnMeanwhile(error)) throw error;
      const again = await prepareAgain();
      if (again.kind === "repeat") return again;
      throw error;
    }
    return { kind: "begun", run: prepared, opening, ...(observer ? { observer } : {}) };
  }

  return {
    async start(user, agentId, input) {
      const agent = findAgentFor(agents, agentId, user);
      // A previous run whose end is still waiting for the store must not hold the thread.
      await hub.settleThread(input.threadId);
      const prepare = () => prepareRun({ agent, user, input, store, ids, secret: options.secret, now: approvalClock });
      const prepared = await prepare();
      const started = prepared.kind === "new" ? await begin(prepared, prepare) : prepared;
      if (started.kind === "repeat") return { runId: started.runId, threadId: input.threadId, repeat: true };
      const { run, opening, observer } = started;
      const controller = new AbortController();
      const opened = hub.open({ runId: input.runId, threadId: input.threadId, stored: opening });
      const channel = observer ? observedChannel(opened, observer) : opened;
      const services = {
        store,
        channel,
        signal: controller.signal,
        ids,
        approvals: { secret: options.secret, now: approvalClock },
        records,
        ...(observer ? { observer } : {}),
        ...(options.onModelError ? { onModelError: options.onModelError } : {}),
      };
      const done = runLoop(run, services)
        .catch((error: unknown) => {
          observer?.end({ status: "error", error: toTetherError(error) });
          options.onLoopError?.(error, input.runId);
        })
        .finally(() => running.delete(input.runId));
      running.set(input.runId, { controller, done });
      return { runId: input.runId, threadId: input.threadId, repeat: false };
    },
    cancel(runId) {
      const run = running.get(runId);
      if (!run) return false;
      run.controller.abort(new TetherError("run_cancelled", "The run was cancelled."));
      return true;
    },
    stopAll(reason) {
      let stopped = 0;
      for (const run of running.values()) {
        if (run.controller.signal.aborted) continue;
        run.controller.abort(reason);
        stopped++;
      }
      return stopped;
    },
    async settled(runId) {
      await running.get(runId)?.done;
    },
    async drain() {
      await Promise.all([...running.values()].map((run) => run.done));
    },
  };
}

/** A run whose beginning the store took: the run, its first events, and who watches it. */
interface Begun {
  kind: "begun";
  run: NewRun;
  opening: SequencedEvent[];
  observer?: RunObserver;
}

/** A request that is the repeat of a run: that run's events are its answer. */
type RepeatedRun = Extract<PreparedRun, { kind: "repeat" }>;

/** The run's channel, telling the observer how the run ended once the store has it. */
function observedChannel(channel: RunChannel, observer: RunObserver): RunChannel {
  return {
    runId: channel.runId,
    emit: channel.emit,
    async end(terminal, ending) {
      await channel.end(terminal, ending);
      observer.end(ending);
    },
  };
}

/**
 * How a run begins, stored with the run itself: RUN_STARTED carries the run's
 * new messages, so a client that replays it (a reload, a second window) sees
 * what started it; a snapshot follows when the server added messages the
 * client lacks; then the state the run starts from, when the thread has one,
 * which puts every client (a stale one too) on the server's value.
 */
function openingEvents(prepared: NewRun): BaseEvent[] {
  const started = {
    type: EventType.RUN_STARTED,
    threadId: prepared.threadId,
    runId: prepared.runId,
    ...(prepared.parentRunId ? { parentRunId: prepared.parentRunId } : {}),
    input: { threadId: prepared.threadId, runId: prepared.runId, messages: prepared.added, tools: [], context: [] },
  } as BaseEvent;
  return [
    started,
    ...(prepared.synthesized ? [{ type: EventType.MESSAGES_SNAPSHOT, messages: prepared.history } as BaseEvent] : []),
    ...(prepared.state.announce ? [{ type: EventType.STATE_SNAPSHOT, snapshot: prepared.state.start } as BaseEvent] : []),
  ];
}
