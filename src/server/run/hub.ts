import type { BaseEvent } from "@ag-ui/core";
import type { RunStore, StoredEvent } from "../store/port.ts";

/** An event with its place in the run's log; SSE frames carry it as `id: <runId>:<seq>`. */
export type SequencedEvent = StoredEvent;

/** The producer side of one run's event stream. */
export interface RunChannel {
  readonly runId: string;
  /** Numbers the event, hands it to every follower and queues it for the store. */
  emit(event: BaseEvent): void;
  /** Resolves once everything emitted so far is in the store. */
  flush(): Promise<void>;
  /** Flushes, then ends the stream for every follower. */
  close(): Promise<void>;
}

/**
 * Fans a run's events out to whoever follows it, and writes them to the store.
 *
 * Events are handed on and persisted in batches, once per turn of the event
 * loop: a burst of tokens becomes one write to the socket and one transaction,
 * not thousands. A run's events stay in memory until it ends, so a follower
 * that joins late (a reconnect) misses nothing; after that they come from the
 * store. This is the in-process fan-out; several server instances would put a
 * shared bus (Redis) behind the same two methods.
 */
export interface RunHub {
  open(runId: string): RunChannel;
  /** Whether the run's stream is open in this process. */
  isLive(runId: string): boolean;
  /** The run's events with `seq > afterSeq`, in batches, until its stream ends. */
  follow(runId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<SequencedEvent[]>;
}

interface LiveRun {
  events: SequencedEvent[];
  persisted: number;
  closed: boolean;
  waiters: Set<() => void>;
  tick: ReturnType<typeof setImmediate> | undefined;
  writing: Promise<void>;
}

export function createRunHub(options: { store: RunStore; onPersistError?: (error: unknown, runId: string) => void }): RunHub {
  const { store } = options;
  const live = new Map<string, LiveRun>();

  const persist = (runId: string, run: LiveRun): Promise<void> => {
    run.writing = run.writing.then(async () => {
      const batch = run.events.slice(run.persisted);
      if (batch.length === 0) return;
      try {
        await store.appendEvents(runId, batch);
        run.persisted += batch.length;
      } catch (error) {
        // Kept in memory and tried again on the next flush; the run itself goes on.
        options.onPersistError?.(error, runId);
      }
    });
    return run.writing;
  };

  const wake = (run: LiveRun) => {
    const waiters = [...run.waiters];
    run.waiters.clear();
    for (const resolve of waiters) resolve();
  };

  return {
    open(runId) {
      const run: LiveRun = { events: [], persisted: 0, closed: false, waiters: new Set(), tick: undefined, writing: Promise.resolve() };
      live.set(runId, run);
      const onTick = () => {
        run.tick = undefined;
        void persist(runId, run);
        wake(run);
      };
      return {
        runId,
        emit(event) {
          if (run.closed) throw new Error(`Run ${runId} is closed; no more events can be emitted.`);
          run.events.push({ seq: run.events.length + 1, event });
          run.tick ??= setImmediate(onTick);
        },
        flush: () => persist(runId, run),
        async close() {
          if (run.tick) clearImmediate(run.tick);
          run.tick = undefined;
          await persist(runId, run);
          run.closed = true;
          wake(run);
          live.delete(runId);
        },
      };
    },
    isLive: (runId) => live.has(runId),
    async *follow(runId, afterSeq, signal) {
      const run = live.get(runId);
      if (!run) {
        const stored = await store.readEvents(runId, afterSeq);
        if (stored.length > 0) yield stored;
        return;
      }
      let cursor = Math.max(0, afterSeq);
      while (!signal?.aborted) {
        if (run.events.length > cursor) {
          const batch = run.events.slice(cursor);
          cursor = run.events.length;
          yield batch;
          continue;
        }
        if (run.closed) return;
        await new Promise<void>((resolve) => {
          const done = () => {
            signal?.removeEventListener("abort", done);
            run.waiters.delete(done);
            resolve();
          };
          run.waiters.add(done);
          signal?.addEventListener("abort", done);
        });
      }
    },
  };
}
