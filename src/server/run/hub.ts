import type { BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import type { RunStore, StoredEvent } from "../store/port.ts";

/**
 * An event with its place in the run's log; SSE frames carry it as
 * `id: <runId>:<seq>`. Live events are encoded once, when emitted: `sse` is the
 * encoder's `data:` block and `json` (a slice of it) is what the store writes.
 */
export type SequencedEvent = StoredEvent & { sse?: string };

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
 * Events are handed on in batches, once per turn of the event loop, and
 * stored in pages, every few milliseconds: a burst of tokens becomes one write
 * to the socket and one transaction, not thousands. An event stays in memory until it is stored and every
 * follower has it; a follower that joins late (a reconnect) reads the older
 * part from the store, so it misses nothing. This is the in-process fan-out;
 * several server instances would put a shared bus (Redis) behind the same
 * methods.
 */
export interface RunHub {
  open(runId: string): RunChannel;
  /** Whether the run's stream is open in this process. */
  isLive(runId: string): boolean;
  /** The run's events with `seq > afterSeq`, in batches, until its stream ends. */
  follow(runId: string, afterSeq: number, signal?: AbortSignal): AsyncIterable<SequencedEvent[]>;
}

interface LiveRun {
  /** Events with seq `base + 1` onwards; the ones before are stored and every follower has them. */
  events: SequencedEvent[];
  base: number;
  /** Highest seq known to be in the store. */
  persisted: number;
  closed: boolean;
  /** How far each follower has read. */
  cursors: Set<{ seq: number }>;
  waiters: Set<() => void>;
  tick: ReturnType<typeof setImmediate> | undefined;
  persistTimer: ReturnType<typeof setTimeout> | undefined;
  writing: Promise<void>;
}

const encoder = new EventEncoder();
/** The most events handed to a follower at once, so a late one never gets a whole run in one write. */
const MAX_BATCH = 1024;
/**
 * How long emitted events may wait for the store, and how many. A commit costs
 * far more than a page, so events are stored a few milliseconds late; until
 * then they are served from memory, and `close` stores everything.
 */
const PERSIST_AFTER_MS = 20;
const PERSIST_AT_EVENTS = 2000;

export function createRunHub(options: { store: RunStore; onPersistError?: (error: unknown, runId: string) => void }): RunHub {
  const { store } = options;
  const live = new Map<string, LiveRun>();
  const lastSeq = (run: LiveRun) => run.base + run.events.length;

  const persist = (runId: string, run: LiveRun): Promise<void> => {
    run.writing = run.writing.then(async () => {
      const batch = run.events.slice(run.persisted - run.base);
      if (batch.length === 0) return;
      try {
        await store.appendEvents(runId, batch);
        run.persisted = batch.at(-1)!.seq;
      } catch (error) {
        // Kept in memory and tried again on the next flush; the run itself goes on.
        options.onPersistError?.(error, runId);
      }
    });
    return run.writing;
  };

  // Drops what is stored and read by everyone: events die young instead of filling the heap.
  const trim = (run: LiveRun) => {
    let keepFrom = run.persisted;
    for (const cursor of run.cursors) keepFrom = Math.min(keepFrom, cursor.seq);
    if (keepFrom > run.base) {
      run.events = run.events.slice(keepFrom - run.base);
      run.base = keepFrom;
    }
  };

  const wake = (run: LiveRun) => {
    const waiters = [...run.waiters];
    run.waiters.clear();
    for (const resolve of waiters) resolve();
  };

  return {
    open(runId) {
      const run: LiveRun = {
        events: [],
        base: 0,
        persisted: 0,
        closed: false,
        cursors: new Set(),
        waiters: new Set(),
        tick: undefined,
        persistTimer: undefined,
        writing: Promise.resolve(),
      };
      live.set(runId, run);
      const store = () => {
        clearTimeout(run.persistTimer);
        run.persistTimer = undefined;
        void persist(runId, run).then(() => trim(run));
      };
      const onTick = () => {
        run.tick = undefined;
        wake(run);
        if (lastSeq(run) - run.persisted >= PERSIST_AT_EVENTS) store();
        else run.persistTimer ??= setTimeout(store, PERSIST_AFTER_MS);
      };
      return {
        runId,
        emit(event) {
          if (run.closed) throw new Error(`Run ${runId} is closed; no more events can be emitted.`);
          const sse = encoder.encodeSSE(event);
          // "data: " + JSON + "\n\n": the JSON is the same text the stream sends.
          run.events.push({ seq: lastSeq(run) + 1, event, sse, json: sse.slice(6, -2) });
          run.tick ??= setImmediate(onTick);
        },
        flush: () => persist(runId, run),
        async close() {
          if (run.tick) clearImmediate(run.tick);
          clearTimeout(run.persistTimer);
          run.tick = undefined;
          // The last events must reach the store: a passing failure gets a few more tries.
          for (const pause of [0, 100, 500, 2000]) {
            if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
            await persist(runId, run);
            if (run.persisted === lastSeq(run)) break;
          }
          run.closed = true;
          wake(run);
          // Still not stored: keep serving them from memory rather than lose them.
          if (run.persisted === lastSeq(run)) live.delete(runId);
        },
      };
    },
    isLive: (runId) => live.get(runId)?.closed === false,
    async *follow(runId, afterSeq, signal) {
      const run = live.get(runId);
      const cursor = { seq: Math.max(0, afterSeq) };
      if (!run) {
        yield* fromStore(store, runId, cursor);
        return;
      }
      run.cursors.add(cursor);
      try {
        while (!signal?.aborted) {
          if (cursor.seq < run.base) {
            // Behind what memory still holds: catch up from the store (it has everything up to base).
            yield* fromStore(store, runId, cursor, run.base);
            continue;
          }
          if (lastSeq(run) > cursor.seq) {
            const batch = run.events.slice(cursor.seq - run.base, cursor.seq - run.base + MAX_BATCH);
            cursor.seq = batch.at(-1)!.seq;
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
      } finally {
        run.cursors.delete(cursor);
      }
    },
  };
}

/** Stored events after the cursor (up to `until`), in batches; moves the cursor along. */
async function* fromStore(store: RunStore, runId: string, cursor: { seq: number }, until = Infinity): AsyncIterable<SequencedEvent[]> {
  const stored = (await store.readEvents(runId, cursor.seq)).filter((event) => event.seq <= until);
  for (let index = 0; index < stored.length; index += MAX_BATCH) {
    const batch = stored.slice(index, index + MAX_BATCH);
    cursor.seq = batch.at(-1)!.seq;
    yield batch;
  }
}
