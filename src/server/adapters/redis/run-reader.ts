import type { Redis } from "ioredis";
import type { RunStore } from "../../store/index.ts";
import type { RedisHealth } from "./health.ts";
import type { ReadConnections } from "./read-connections.ts";
import { decodeEntries, entryId, isTerminal } from "./stream.ts";
import { type SequencedEvent, isRunning, storedAfter } from "../../hub/index.ts";

/** The most events read from the stream at once. */
export const MAX_BATCH = 1024;
/** How long one XREAD waits for news before the store is asked for what the stream did not say (the run's end, say). */
export const BLOCK_MS = 2000;
/** How often a reader asks the store for news while it cannot read the stream (Redis down, or no connection free). */
export const POLL_MS = 500;
/**
 * Events a follower may have waiting before its queue is dropped: a client
 * that reads slower than the run goes on reads what it missed from the
 * stream or the store instead (redis-follow.ts), so it never holds the others
 * back nor piles up memory.
 */
export const MAX_QUEUED_EVENTS = 4096;

/** One follower of a shared reader: the batches handed on since `from`, in order. */
export interface ReaderSubscriber {
  /** Batches handed on after `from`, not taken yet. */
  queue: SequencedEvent[][];
  queuedEvents: number;
  /** The queue holds every event after this one; those up to it the follower reads elsewhere. */
  from: number;
  /** Resolves the follower's wait for news. */
  wake: (() => void) | undefined;
}

/** The one reader of a run's stream on this instance, whose batches every follower of the run gets. */
export interface RunReader {
  /** The last event handed on. */
  readonly cursor: number;
  /** Whether the reader stopped: after the terminal event, on close, or when the store failed (`error`). */
  readonly ended: boolean;
  readonly error: unknown;
  join(): ReaderSubscriber;
  leave(subscriber: ReaderSubscriber): void;
}

export interface RunReaderOptions {
  store: RunStore;
  connections: ReadConnections;
  health: RedisHealth;
  key: string;
  runId: string;
  /** Where the reader starts: the first follower's cursor. */
  afterSeq: number;
  /** Told when the reader stops, so the next follower of the run starts a new one. */
  onEnd: () => void;
  /** Whether the hub is closing: the reader stops at once. */
  closing: () => boolean;
}

/**
 * Reads a run that executes on another instance, once for every follower of
 * it on this instance: its Redis stream (XREAD BLOCK on a connection of its
 * own, from the event after the last one handed on), or the store while it
 * cannot (Redis down, or every connection in use), every POLL_MS. Entry ids
 * are event numbers, so switching between the two neither skips nor repeats
 * an event; a stream that starts past the cursor (trimmed, which only happens
 * to stored entries) is filled from the store. Ends after the terminal event,
 * or when the run has ended in the store (its instance died, the stream
 * expired), or when its last follower has gone.
 */
export function startRunReader(options: RunReaderOptions): RunReader {
  const { store, connections, health, key, runId } = options;
  const subscribers = new Set<ReaderSubscriber>();
  let cursor = Math.max(0, options.afterSeq);
  let ended = false;
  let error: unknown;
  let pause: { timer: ReturnType<typeof setTimeout>; resolve: () => void } | undefined;

  const handOn = (events: SequencedEvent[]) => {
    if (events.length === 0) return;
    cursor = events.at(-1)!.seq;
    for (const subscriber of subscribers) {
      if (subscriber.queuedEvents + events.length > MAX_QUEUED_EVENTS) {
        // Too far behind: it reads what it missed elsewhere, from `from` on.
        subscriber.queue = [];
        subscriber.queuedEvents = 0;
        subscriber.from = cursor;
      } else {
        subscriber.queue.push(events);
        subscriber.queuedEvents += events.length;
      }
      subscriber.wake?.();
    }
  };
  /** Hands on the stored events after the cursor (up to `until`); whether the run's end was among them. */
  const handOnStored = async (until = Infinity) => {
    const stored = await storedAfter(store, runId, cursor, until);
    for (let index = 0; index < stored.length; index += MAX_BATCH) handOn(stored.slice(index, index + MAX_BATCH));
    return stored.length > 0 && isTerminal(stored.at(-1)!.event);
  };
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      pause = { timer: setTimeout(resolve, ms), resolve };
    }).finally(() => (pause = undefined));
  const stillWanted = () => subscribers.size > 0 && !options.closing();

  /** What one XREAD brought, handed on: false once the run's stream is over. */
  const handOnReply = async (reply: [key: string, entries: [id: string, fields: string[]][]][] | null): Promise<boolean> => {
    if (!reply) {
      // A silent stream: the run's end stored by another (its instance died), or an instance that cannot reach Redis
      // while this one can. The store has what was sent either way; a run still going goes on from the stream after it.
      const running = await isRunning(store, runId);
      return !((await handOnStored()) || !running);
    }
    const events = decodeEntries(reply[0]![1]);
    if (events[0]!.seq > cursor + 1 && (await handOnStored(events[0]!.seq - 1))) return false;
    const fresh = events.filter((event) => event.seq > cursor);
    handOn(fresh);
    return !(fresh.length > 0 && isTerminal(fresh.at(-1)!.event));
  };
  /** One look at the store, then a pause: false once the run has ended there. Asked before reading: a run that had ended by then has all its events stored. */
  const pollStore = async (): Promise<boolean> => {
    const running = await isRunning(store, runId);
    if ((await handOnStored()) || !running) return false;
    await wait(POLL_MS);
    return true;
  };

  const loop = async () => {
    let connection: Redis | undefined;
    try {
      while (stillWanted()) {
        if (!connection && !health.down) connection = connections.borrow();
        if (!connection || health.down) {
          if (connection) connections.release(connection);
          connection = undefined;
          if (!(await pollStore())) return;
          continue;
        }
        let reply: Parameters<typeof handOnReply>[0];
        try {
          reply = (await connection.xread("COUNT", MAX_BATCH, "BLOCK", BLOCK_MS, "STREAMS", key, entryId(cursor))) as typeof reply;
        } catch (failure) {
          if (options.closing()) return;
          // Redis is down or stalled (the read outlived its command timeout): the connection is dropped, not left
          // to a reply that may come much later, and the store is asked meanwhile (never a tight loop of failures).
          connections.release(connection, true);
          connection = undefined;
          health.failed(failure);
          if (!(await pollStore())) return;
          continue;
        }
        if (!(await handOnReply(reply))) return;
      }
    } catch (failure) {
      // The store failed: every follower hears it, as a follower of one run on one instance would.
      error = failure;
    } finally {
      if (connection) connections.release(connection);
      ended = true;
      options.onEnd();
      for (const subscriber of subscribers) subscriber.wake?.();
    }
  };
  // After the first follower has joined (startRunReader's caller joins at once).
  void Promise.resolve().then(loop);

  return {
    get cursor() {
      return cursor;
    },
    get ended() {
      return ended;
    },
    get error() {
      return error;
    },
    join() {
      const subscriber: ReaderSubscriber = { queue: [], queuedEvents: 0, from: cursor, wake: undefined };
      subscribers.add(subscriber);
      return subscriber;
    },
    leave(subscriber) {
      subscribers.delete(subscriber);
      // A reader waiting between store polls stops at once; one blocked in XREAD when the read returns (BLOCK_MS at
      // most), keeping its connection for the next reader.
      if (subscribers.size === 0 && pause) {
        clearTimeout(pause.timer);
        pause.resolve();
      }
    },
  };
}
