import type { Redis } from "ioredis";
import type { RunStore } from "../../store/index.ts";
import type { RedisHealth } from "./health.ts";
import type { ReadConnections } from "./read-connections.ts";
import { MAX_BATCH, POLL_MS, startRunReader, type ReaderSubscriber, type RunReader } from "./run-reader.ts";
import { decodeEntries, entryId, isTerminal } from "./stream.ts";
import { type SequencedEvent, isRunning, storedAfter } from "../../hub/index.ts";

/** Followers of runs that execute on other instances, on this one. */
export interface RemoteFollowers {
  /** The run's events with `seq > afterSeq`, in batches, through its terminal event. */
  follow(runId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<SequencedEvent[]>;
  /** How many runs are read now (one reader each, whatever their number of followers). */
  readonly readers: number;
  /** Stops every reader; their followers' streams end. */
  close(): void;
}

export interface RemoteFollowerOptions {
  store: RunStore;
  /** The instance's main connection, for the non-blocking reads of a late follower's gap (XRANGE). */
  redis: Redis;
  connections: ReadConnections;
  health: RedisHealth;
  /** The run's stream key. */
  keyOf: (runId: string) => string;
}

/**
 * Serves runs that execute on another instance: a run that ended from the
 * store; a running one from one shared reader per run (redis-run-reader.ts),
 * whose batches every follower of the run on this instance gets, each from
 * its own cursor. A follower that joins after the reader has gone past its
 * cursor, or that fell too far behind, first reads what it missed from the
 * stream (XRANGE) or, where the stream has it no more or Redis is down, the
 * store; entry ids are event numbers, so nothing is skipped or repeated. The
 * reader stops when its last follower has gone.
 */
export function createRemoteFollowers(options: RemoteFollowerOptions): RemoteFollowers {
  const { store, redis, health } = options;
  const readers = new Map<string, RunReader>();
  let closing = false;

  const readerFor = (runId: string, afterSeq: number): RunReader => {
    const running = readers.get(runId);
    if (running) return running;
    const reader = startRunReader({
      store,
      connections: options.connections,
      health,
      key: options.keyOf(runId),
      runId,
      afterSeq,
      closing: () => closing,
      onEnd: () => {
        if (readers.get(runId) === reader) readers.delete(runId);
      },
    });
    readers.set(runId, reader);
    return reader;
  };

  /** Events after `cursor` through `until` that the reader handed on before this follower had them. */
  const missed = async (runId: string, cursor: number, until: number, signal: AbortSignal | undefined): Promise<SequencedEvent[]> => {
    let fromStream: SequencedEvent[] = [];
    if (!health.down) {
      try {
        fromStream = decodeEntries((await redis.xrange(options.keyOf(runId), entryId(cursor + 1), entryId(until))) as [id: string, fields: string[]][]);
      } catch (failure) {
        health.failed(failure);
      }
    }
    const firstInStream = fromStream[0]?.seq ?? until + 1;
    // Trimmed from the stream (so stored), or Redis is down: the store has it, or will within moments.
    const stored = firstInStream > cursor + 1 ? await storedUpTo(runId, cursor, firstInStream - 1, signal) : [];
    return [...stored, ...fromStream];
  };

  /**
   * Stored events after `cursor` through `until`, waiting while the run goes on and the store has not caught up
   * (it lags the stream by a page or two). Short of `until` only when the run ended without them: they were lost
   * with their instance, and every follower skips them.
   */
  const storedUpTo = async (runId: string, cursor: number, until: number, signal: AbortSignal | undefined) => {
    for (;;) {
      const running = await isRunning(store, runId);
      const stored = await storedAfter(store, runId, cursor, until);
      const last = stored.at(-1);
      if (!running || signal?.aborted || closing || (last && (last.seq >= until || isTerminal(last.event)))) return stored;
      await pause(POLL_MS, signal);
    }
  };

  async function* follow(runId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<SequencedEvent[]> {
    let cursor = Math.max(0, afterSeq);
    if (!(await isRunning(store, runId))) {
      yield* inBatches(await storedAfter(store, runId, cursor));
      return;
    }
    const reader = readerFor(runId, cursor);
    const subscriber = reader.join();
    const wake = () => subscriber.wake?.();
    signal?.addEventListener("abort", wake);
    try {
      while (!signal?.aborted) {
        if (cursor < subscriber.from) {
          const until = subscriber.from;
          for (const batch of inBatches(await missed(runId, cursor, until, signal))) {
            cursor = batch.at(-1)!.seq;
            yield batch;
            if (isTerminal(batch.at(-1)!.event)) return;
          }
          cursor = Math.max(cursor, until);
          continue;
        }
        const batch = subscriber.queue.shift();
        if (batch) {
          subscriber.queuedEvents -= batch.length;
          const fresh = batch.filter((event) => event.seq > cursor);
          if (fresh.length === 0) continue;
          cursor = fresh.at(-1)!.seq;
          yield fresh;
          if (isTerminal(fresh.at(-1)!.event)) return;
          continue;
        }
        if (reader.ended) {
          if (reader.error !== undefined) throw reader.error;
          return;
        }
        await news(subscriber);
      }
    } finally {
      signal?.removeEventListener("abort", wake);
      reader.leave(subscriber);
    }
  }

  return {
    follow,
    get readers() {
      return readers.size;
    },
    close() {
      closing = true;
    },
  };
}

function news(subscriber: ReaderSubscriber): Promise<void> {
  return new Promise<void>((resolve) => (subscriber.wake = resolve)).finally(() => (subscriber.wake = undefined));
}

function* inBatches(events: SequencedEvent[]): Iterable<SequencedEvent[]> {
  for (let index = 0; index < events.length; index += MAX_BATCH) yield events.slice(index, index + MAX_BATCH);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done);
  });
}
