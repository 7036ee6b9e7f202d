import { createRequire } from "node:module";
import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

export interface Checkpoints {
  /** Closes the worker's connection to this database; the store's own close then checkpoints what is left. */
  stop(): Promise<void>;
}

/** How often the worker checkpoints each database. */
export const CHECKPOINT_EVERY_MS = 500;
/** Pages the write-ahead log may hold before the store's connection finishes a checkpoint itself (32 MB at 4 kB pages). */
export const WAL_LIMIT_PAGES = 8192;
/** A checkpoint that copied at most this many pages leaves little to copy while the store's writes are held off. */
const CATCH_UP_PAGES = 256;
/** Checkpoints in a row the worker makes to get there, before it starts the log over anyway. */
const CHASES = 8;
/** How long the worker waits for a moment between the store's writes to start the log over in. */
const RESTART_WAIT_MS = 50;
/** Ticks in a row that fail before a database goes back to checkpointing in its own commits. */
const FAILURES_BEFORE_FALLBACK = 5;

// The worker: a connection per database, a passive checkpoint of each at every tick. Plain JavaScript run
// with `eval`, so the package needs no file of its own for it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const open = new Map();
parentPort.on("message", (message) => {
  if (message.open) {
    try {
      const db = new Database(message.filename);
      db.pragma("busy_timeout = 0");
      db.pragma("synchronous = NORMAL");
      const entry = { db, failures: 0, checkpointed: 0, chases: 0, again: undefined };
      const checkpoint = () => {
        try {
          const [log] = db.pragma("wal_checkpoint(PASSIVE)");
          entry.failures = 0;
          const copied = log.checkpointed >= entry.checkpointed ? log.checkpointed - entry.checkpointed : log.checkpointed;
          entry.checkpointed = log.checkpointed;
          if (log.busy !== 0 || log.log < message.limitPages || log.checkpointed !== log.log) return;
          // All of a long log is in the database, yet it never started over: a write came during every checkpoint.
          // Copy again at once until a copy is short, then start the log over here, holding off the store's writes
          // for what came during that last copy; they wait asynchronously (sqliteAttempt), never the event loop.
          if (copied > workerData.catchUpPages && entry.chases++ < workerData.chases) {
            entry.again = setImmediate(checkpoint);
            return;
          }
          entry.chases = 0;
          db.pragma("busy_timeout = " + workerData.restartWaitMs);
          try {
            db.pragma("wal_checkpoint(TRUNCATE)");
          } catch {
            // Not this time (a reader, the disk): the next tick tries again.
          } finally {
            db.pragma("busy_timeout = 0");
          }
        } catch {
          if (++entry.failures < workerData.failuresBeforeFallback) return;
          clearInterval(entry.timer);
          parentPort.postMessage({ failed: message.open });
        }
      };
      entry.timer = setInterval(checkpoint, message.everyMs);
      open.set(message.open, entry);
    } catch {
      parentPort.postMessage({ failed: message.open });
    }
  } else if (message.close) {
    const entry = open.get(message.close);
    open.delete(message.close);
    if (entry) { clearInterval(entry.timer); clearImmediate(entry.again); entry.db.close(); }
    parentPort.postMessage({ closed: message.close });
  }
});
`;

interface Registered {
  fallBack(): void;
  closed?: () => void;
}

/** One worker for the process, started with its first file-backed store and shared by every one after it. */
let shared: { worker: Worker; stores: Map<number, Registered>; closing: number } | undefined;
let nextId = 1;

function sharedWorker() {
  if (shared) return shared;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      failuresBeforeFallback: FAILURES_BEFORE_FALLBACK,
      catchUpPages: CATCH_UP_PAGES,
      chases: CHASES,
      restartWaitMs: RESTART_WAIT_MS,
    },
  });
  const state = { worker, stores: new Map<number, Registered>(), closing: 0 };
  worker.unref();
  worker.on("message", (message: { failed?: number; closed?: number }) => {
    if (message.failed) state.stores.get(message.failed)?.fallBack();
    if (message.closed) state.stores.get(message.closed)?.closed?.();
  });
  // A worker gone (an error in it, or stopped from outside): every store checkpoints for itself again.
  const gone = () => {
    if (shared === state) shared = undefined;
    for (const store of state.stores.values()) {
      store.fallBack();
      store.closed?.();
    }
    state.stores.clear();
  };
  worker.once("error", gone);
  worker.once("exit", gone);
  shared = state;
  return state;
}

/**
 * Moves a store's WAL checkpoints off the event loop. SQLite checkpoints
 * inside the commit that crosses its threshold, and a checkpoint copies the
 * log into the database and waits for the disk twice: under load, a few
 * milliseconds in every other commit, during which no stream moves. Here the
 * store's connection never checkpoints; a worker thread with a connection of
 * its own does, passively (it never blocks the store's reads or writes),
 * every `checkpointEveryMs`. Should the worker fail to start, stop on its own, or fail
 * several ticks in a row, the store's connection checkpoints for itself again.
 *
 * A write starts the log over only when it begins with all of the log in
 * the database. Under writes that never pause, one always lands while the
 * worker copies, and the log grew without end (a gigabyte in minutes). So
 * once the log is past `walLimitPages`, the worker copies again at once until
 * a copy is short (up to CHASES times), then checkpoints holding off writes
 * for what came during that copy, and starts the log over itself (its file
 * emptied). The store's writes that meet it wait off the event loop
 * (`sqliteAttempt`): a few milliseconds once per `walLimitPages` of log.
 */
export function checkpointInBackground(
  db: Database.Database,
  filename: string,
  { checkpointEveryMs = CHECKPOINT_EVERY_MS, walLimitPages = WAL_LIMIT_PAGES }: { checkpointEveryMs?: number; walLimitPages?: number } = {},
): Checkpoints {
  let state: NonNullable<typeof shared>;
  try {
    state = sharedWorker();
  } catch {
    return { stop: async () => {} };
  }
  const id = nextId++;
  let stopped = false;
  const registered: Registered = {
    fallBack: () => {
      if (!stopped && db.open) db.pragma("wal_autocheckpoint = 1000");
    },
  };
  state.stores.set(id, registered);
  db.pragma("wal_autocheckpoint = 0");
  // Absolute: the worker must reach this file even after the process changes its working directory.
  state.worker.postMessage({ open: id, filename: resolve(filename), everyMs: checkpointEveryMs, limitPages: walLimitPages });
  return {
    stop() {
      if (stopped) return Promise.resolve();
      stopped = true;
      if (!state.stores.has(id)) return Promise.resolve();
      return new Promise<void>((done) => {
        registered.closed = () => {
          state.stores.delete(id);
          if (--state.closing === 0) state.worker.unref();
          done();
        };
        // Held until the worker answers: an unref'd worker alone would let the process exit mid-close.
        if (state.closing++ === 0) state.worker.ref();
        state.worker.postMessage({ close: id });
      });
    },
  };
}
