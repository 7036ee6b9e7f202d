import { EventType, type BaseEvent } from "@ag-ui/core";
import { TetherError, toTetherError } from "../../protocol/index.ts";
import type { RunStore } from "../store/index.ts";
import type { RunHub } from "./port.ts";
import { lastSeq, openLiveRun, sendable, unstored, type LiveRun } from "./live-run.ts";
import { sequenceEvent, type SequencedEvent } from "./sequence-events.ts";

export type { RunChannel, RunEnding, RunHub, RunTail } from "./port.ts";
export { sequenceEvents, type SequencedEvent } from "./sequence-events.ts";

/** The most events handed to a follower at once, so a late one never gets a whole run in one write. */
const MAX_BATCH = 1024;
/**
 * How long emitted events may wait for the store, and how many: a commit costs far more than a page, so events
 * are stored a tenth of a second late and served from memory until then. At 30 tokens a second a page holds
 * three, not one: a page per token was a tenth of the server's CPU under many slow streams.
 */
const PERSIST_AFTER_MS = 100;
const PERSIST_AT_EVENTS = 2000;
/** How long a request waiting on a thread's earlier end (a new run, a cancel) waits for the store's lock: as long as a run's start does. */
const SETTLE_WAIT_MS = 2000;
/** Pauses between tries to store a run's events or end while the store refuses them. */
const RETRY_MS = [50, 100, 250, 500, 1000, 2000, 5000];

export function createRunHub(options: { store: RunStore; onPersistError?: (error: unknown, runId: string) => void }): RunHub {
  const { store } = options;
  const live = new Map<string, LiveRun>();
  /** Set by close: nothing is retried after it, so a closed store is not written to and no timer keeps the process up. */
  let closing = false;

  const wake = (run: LiveRun) => {
    const waiters = [...run.waiters];
    run.waiters.clear();
    for (const resolve of waiters) resolve();
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

  const stored = (run: LiveRun, through: number) => {
    run.failures = 0;
    const moved = through > run.persisted;
    run.persisted = Math.max(run.persisted, through);
    trim(run);
    // Followers held back by the store may go on.
    if (moved) wake(run);
    if (run.closed && run.persisted === lastSeq(run)) live.delete(run.runId);
  };

  const retryLater = (run: LiveRun, error: unknown, write: () => void) => {
    if (run.failures === 0) options.onPersistError?.(error, run.runId);
    clearTimeout(run.persistTimer);
    if (closing) return;
    const pauseMs = RETRY_MS[Math.min(run.failures, RETRY_MS.length - 1)];
    // Forgotten once it fires, as persistNow's is: a spent handle left here kept persistSoon from arming the next
    // one, so after a failed write the run's events waited for a full batch or the run's end.
    run.persistTimer = setTimeout(() => {
      run.persistTimer = undefined;
      write();
    }, pauseMs);
    run.failures++;
  };

  /** Writes the events not yet stored as pages; on failure keeps them and tries again later. */
  const persist = (run: LiveRun): Promise<void> => {
    run.queuedWrites++;
    run.writing = run.writing.then(async () => {
      let written = false;
      try {
        if (run.ending) return; // the end's own write takes everything with it
        const batch = unstored(run).filter((event) => event.seq < run.held);
        if (batch.length === 0) return;
        await store.appendEvents(run.runId, batch);
        stored(run, batch.at(-1)!.seq);
        written = true;
      } catch (error) {
        retryLater(run, error, () => void persist(run));
      } finally {
        run.queuedWrites--;
      }
      // A full batch that came while this write was on its way goes now, as one write.
      if (written) persistSoon(run);
    });
    return run.writing;
  };

  const persistNow = (run: LiveRun) => {
    clearTimeout(run.persistTimer);
    run.persistTimer = undefined;
    void persist(run);
  };

  /**
   * Stores the run's new events at once when a batch is full and no write is on its way, or else within
   * PERSIST_AFTER_MS. One write at a time: a write queued behind another takes only what came in between,
   * and under a fast stream that was every other commit, each a few hundred events.
   */
  const persistSoon = (run: LiveRun) => {
    // Closing (close() writes what is left), a retry scheduled, the end's write taking them, or nothing new.
    if (closing || run.failures > 0 || run.ending || lastSeq(run) === run.persisted) return;
    if (lastSeq(run) - run.persisted >= PERSIST_AT_EVENTS && run.queuedWrites === 0) persistNow(run);
    else run.persistTimer ??= setTimeout(() => persistNow(run), PERSIST_AFTER_MS);
  };

  /** Writes the run's end with every event not yet stored; true once the store has it. */
  const storeEnd = (run: LiveRun): Promise<boolean> => {
    const attempt = run.writing.then(async () => {
      if (!run.ending) return true;
      try {
        await store.finishRun({ runId: run.runId, ...run.ending, events: unstored(run) });
        run.ending = undefined;
        clearTimeout(run.persistTimer);
        stored(run, lastSeq(run));
        return true;
      } catch (error) {
        retryLater(run, error, () => void storeEnd(run));
        return false;
      }
    });
    run.writing = attempt.then(() => {});
    return attempt;
  };

  /**
   * The same write for a caller that is waiting on it (a new run on the
   * thread, a cancel): a short wait for the lock, not queued behind a
   * background retry that may wait long. The store keeps the first end it
   * gets, so racing the retry is harmless.
   */
  const storeEndNow = async (run: LiveRun): Promise<boolean> => {
    if (!run.ending) return true;
    try {
      await store.finishRun({ runId: run.runId, ...run.ending, events: unstored(run) }, { waitMs: SETTLE_WAIT_MS });
      run.ending = undefined;
      clearTimeout(run.persistTimer);
      stored(run, lastSeq(run));
      return true;
    } catch {
      return false;
    }
  };

  return {
    open({ runId, threadId, stored: first }) {
      const run = openLiveRun(runId, threadId, first);
      live.set(runId, run);
      const onTick = () => {
        if (!run.tick) return; // the run ended first, and its end woke the followers
        run.tick = false;
        wake(run);
        persistSoon(run);
      };
      const push = (event: BaseEvent) => {
        // A programmer error (a bug in whoever ends runs), not a client's: after the end there is nobody to tell.
        if (run.closed || run.held !== Infinity) throw new Error(`Run ${runId} has ended; no more events can be emitted.`);
        const sequenced = sequenceEvent(event, lastSeq(run) + 1);
        run.events.push(sequenced);
        return sequenced;
      };
      return {
        runId,
        emit(event) {
          push(event);
          if (run.tick) return;
          run.tick = true;
          // After this socket read's promise chain has emitted the rest (a tick queued from a microtask waits for the
          // queue to drain), yet before the turn's other callbacks: under load a turn is long (setImmediate doubled the delay).
          queueMicrotask(() => process.nextTick(onTick));
        },
        async end(terminal, ending) {
          run.tick = false;
          clearTimeout(run.persistTimer);
          run.persistTimer = undefined;
          run.failures = 0;
          run.held = push(terminal).seq;
          run.ending = ending;
          // A run stopped because this server lost its hold on the store already says so; its end is stored once the store answers.
          if (!(await storeEnd(run)) && ending.error?.code !== "instance_lost") {
            // Nobody has seen the terminal event yet, so its number is still free: the client is told
            // the truth instead (the run could not be saved), and that is the end the store will get.
            const error = new TetherError(
              "store_unavailable",
              "The run's end could not be saved, so it ended with an error; what earlier steps saved is kept. Try again in a moment.",
            );
            const replacement: BaseEvent = {
              type: EventType.RUN_ERROR,
              code: error.code,
              message: error.message,
              metadata: { tether: { runId, threadId } },
            } as BaseEvent;
            run.events[run.events.length - 1] = sequenceEvent(replacement, run.held);
            run.ending = { status: "error", error: { code: error.code, message: error.message }, ...(ending.usage ? { usage: ending.usage } : {}) };
          }
          run.held = Infinity;
          run.closed = true;
          if (!run.ending && run.persisted === lastSeq(run)) live.delete(runId);
          wake(run);
        },
      };
    },
    isLive: (runId) => live.get(runId)?.closed === false,
    lastSeq: (runId) => {
      const run = live.get(runId);
      return run && lastSeq(run);
    },
    isEnding: (runId) => live.get(runId)?.ending !== undefined,
    tail: async (runId) => {
      const run = live.get(runId);
      return run && { lastSeq: lastSeq(run), live: !run.closed };
    },
    async *follow(runId, afterSeq, signal) {
      const run = live.get(runId);
      const cursor = { seq: Math.max(0, afterSeq) };
      if (!run) {
        yield* fromStore(store, runId, cursor);
        return;
      }
      run.cursors.add(cursor);
      // One abort listener for the whole follow, not one per wait (a slow stream waits once per token);
      // it wakes the run's followers, and the others simply wait again.
      const stopWaiting = () => wake(run);
      signal?.addEventListener("abort", stopWaiting);
      try {
        while (!signal?.aborted) {
          if (cursor.seq < run.base) {
            // Behind what memory still holds: catch up from the store (it has everything up to base).
            yield* fromStore(store, runId, cursor, run.base);
            continue;
          }
          const limit = sendable(run);
          if (limit > cursor.seq) {
            const batch = run.events.slice(cursor.seq - run.base, Math.min(limit, cursor.seq + MAX_BATCH) - run.base);
            cursor.seq = batch.at(-1)!.seq;
            yield batch;
            continue;
          }
          if (run.closed && cursor.seq >= lastSeq(run)) return;
          await new Promise<void>((resolve) => run.waiters.add(resolve));
        }
      } finally {
        signal?.removeEventListener("abort", stopWaiting);
        run.cursors.delete(cursor);
        if (live.has(runId)) trim(run);
      }
    },
    async settleThread(threadId) {
      for (const run of live.values()) {
        if (run.threadId !== threadId || !run.ending) continue;
        if (!(await storeEndNow(run))) {
          throw new TetherError("store_unavailable", "An earlier run of this thread ended, but its end could not be saved yet; try again in a moment.");
        }
      }
    },
    async close() {
      closing = true;
      for (const run of live.values()) {
        clearTimeout(run.persistTimer);
        if (run.ending) await storeEnd(run).catch((error: unknown) => options.onPersistError?.(toTetherError(error), run.runId));
        else await persist(run);
        clearTimeout(run.persistTimer);
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
