import type { Redis } from "ioredis";
import type { RunStore } from "../store/port.ts";
import { decodeEntries, entryId, isTerminal } from "./redis-stream.ts";
import type { SequencedEvent } from "./sequence-events.ts";

/** The most events read from the stream at once. */
const MAX_BATCH = 1024;
/** How long one XREAD waits for news before the store is asked for what the stream did not say (the run's end, say). */
const BLOCK_MS = 2000;

/** How often a follower asks the store for news while Redis is down. */
const POLL_MS = 500;

/** Connections for blocking reads: XREAD BLOCK holds its connection, so each follower borrows one. */
export interface BlockingConnections {
  borrow(): Redis;
  /** Gives a connection back for the next follower; a closed one is dropped. */
  release(connection: Redis): void;
}

/**
 * Follows a run that executes on another instance: the store's part first
 * when the run already ended, else the run's Redis stream from `afterSeq` on.
 * Entry ids are event numbers, so the switch from one to the other neither
 * skips nor repeats an event. When the stream starts past the cursor (trimmed,
 * which only happens to stored entries), the store fills the gap. Ends with
 * the terminal event; or, when the stream falls silent and the store says the
 * run has ended (its instance died and another ended it, or the stream
 * expired), with the rest from the store. While Redis is down, it follows
 * the store alone (pollStore).
 */
export async function* followRemote(options: {
  store: RunStore;
  connections: BlockingConnections;
  key: string;
  runId: string;
  afterSeq: number;
  signal?: AbortSignal | undefined;
}): AsyncIterable<SequencedEvent[]> {
  const { store, runId, signal } = options;
  const cursor = { seq: Math.max(0, options.afterSeq) };
  if (!(await isRunning(store, runId))) {
    yield* fromStore(store, runId, cursor);
    return;
  }
  const connection = options.connections.borrow();
  // A read blocked in Redis ends only when its connection does: a client that goes away closes it.
  const stop = () => connection.disconnect();
  signal?.addEventListener("abort", stop);
  try {
    while (!signal?.aborted) {
      let reply: [key: string, entries: [id: string, fields: string[]][]][] | null;
      try {
        reply = (await connection.xread("COUNT", MAX_BATCH, "BLOCK", BLOCK_MS, "STREAMS", options.key, entryId(cursor.seq))) as typeof reply;
      } catch {
        if (signal?.aborted) return;
        // Redis is down (its client gave up on the read): the store has every event a few milliseconds later.
        connection.disconnect(); // not left reconnecting for as long as the run goes on
        yield* pollStore(store, runId, cursor, signal);
        return;
      }
      if (!reply) {
        // A silent stream: the run's end stored by another (its instance died), or an instance that cannot reach Redis
        // while this one can. The store has what was sent either way; a run still going goes on from the stream after it.
        const running = await isRunning(store, runId);
        if ((yield* fromStore(store, runId, cursor)) || !running) return;
        continue;
      }
      const events = decodeEntries(reply[0]![1]);
      if (events[0]!.seq > cursor.seq + 1) yield* fromStore(store, runId, cursor, events[0]!.seq - 1);
      const fresh = events.filter((event) => event.seq > cursor.seq);
      if (fresh.length === 0) continue;
      cursor.seq = fresh.at(-1)!.seq;
      yield fresh;
      if (isTerminal(fresh.at(-1)!.event)) return;
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    options.connections.release(connection);
  }
}

/**
 * The run from the store alone, asked every POLL_MS until it has ended:
 * slower than the stream, and nothing missed or repeated (the store keeps
 * every event, its end included, and the cursor moves with what was sent).
 */
async function* pollStore(store: RunStore, runId: string, cursor: { seq: number }, signal: AbortSignal | undefined): AsyncIterable<SequencedEvent[]> {
  while (!signal?.aborted) {
    // Asked before reading: a run that had ended by then has all its events in the store.
    const running = await isRunning(store, runId);
    if ((yield* fromStore(store, runId, cursor)) || !running) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, POLL_MS);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      }
      signal?.addEventListener("abort", done);
    });
  }
}

async function isRunning(store: RunStore, runId: string): Promise<boolean> {
  return (await store.getRun(runId))?.status === "running";
}

/** Stored events after the cursor (up to `until`), in batches; moves the cursor along. Returns whether the run's end was among them. */
async function* fromStore(store: RunStore, runId: string, cursor: { seq: number }, until = Infinity): AsyncGenerator<SequencedEvent[], boolean> {
  const stored = (await store.readEvents(runId, cursor.seq)).filter((event) => event.seq <= until);
  for (let index = 0; index < stored.length; index += MAX_BATCH) {
    const batch = stored.slice(index, index + MAX_BATCH);
    cursor.seq = batch.at(-1)!.seq;
    yield batch;
  }
  return stored.length > 0 && isTerminal(stored.at(-1)!.event);
}
