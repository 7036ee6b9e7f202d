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
/** A checkpoint that copied at most this many pages leaves the store's connection little to copy after it. */
const CATCH_UP_PAGES = 256;
/** Checkpoints in a row the worker makes to get there, before it leaves the rest to the store's connection anyway. */
const CHASES = 8;
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
      const entry = { db, failures: 0, checkpointed: 0, chases: 0, asked: -1, again: undefined };
      const checkpoint = () => {
        entry.again = undefined;
        try {
          const [log] = db.pragma("wal_checkpoint(PASSIVE)");
          entry.failures = 0;
          const copied = log.checkpointed >= entry.checkpointed ? log.checkpointed - entry.checkpointed : log.checkpointed;
          entry.checkpointed = log.checkpointed;
          // Asked once per length: a log that stays long is one no write has come to start over since.
          if (log.busy !== 0 || log.log < message.limitPages || log.checkpointed !== log.log || log.log === entry.asked) {
            entry.chases = 0;
            return;
          }
          // All of a long log is in the database, yet it never started over: a write came during every checkpoint.
          // Copy again at once until a copy is short, so that the store's connection has little left to copy itself.
          if (copied > workerData.catchUpPages && entry.chases++ < workerData.chases) {
            entry.again = setImmediate(checkpoint);
            return;
          }
          entry.chases = 0;
          entry.asked = log.log;
          parentPort.postMessage({ catchUp: message.open });
        } catch {
          if (++entry.failures < workerData.failuresBeforeFallback) return;
          clearInterval(entry.timer);
          parentPort.postMessage({ failed: message.open });
        }
      };
      // A tick that finds a chase under way leaves it to go on.
      entry.timer = setInterval(() => entry.again === undefined && checkpoint(), message.everyMs);
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
  catchUp(): void;
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
    },
  });
  const state = { worker, stores: new Map<number, Registered>(), closing: 0 };
  worker.unref();
  worker.on("message", (message: { failed?: number; closed?: number; catchUp?: number }) => {
    if (message.failed) state.stores.get(message.failed)?.fallBack();
    if (message.catchUp) state.stores.get(message.catchUp)?.catchUp();
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
 * Only a write can start the log over, and only one that begins with all of
 * it in the database. Under writes that never pause, a write always lands
 * while the worker copies, and the log would grow without end (a gigabyte in
 * minutes). So once the log is past `walLimitPages`, the worker copies again
 * at once until a copy is short (up to CHASES times); then the store's own
 * connection copies what came during that last copy and its next write
 * starts the log over, cut back to the limit. That copy is on the event
 * loop, with the disk's two syncs: a few milliseconds once per `walLimitPages`
 * of log, and more if writes outrun the worker's copying. The log can pass
 * the limit by what is written in a tick or two.
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
    catchUp: () => {
      if (stopped || !db.open || db.inTransaction) return;
      try {
        db.pragma("wal_checkpoint(PASSIVE)");
      } catch {
        // Not now (the disk, a lock): the worker asks again after its next checkpoint.
      }
    },
  };
  state.stores.set(id, registered);
  db.pragma("wal_autocheckpoint = 0");
  db.pragma(`journal_size_limit = ${walLimitPages * Number(db.pragma("page_size", { simple: true }))}`);
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
