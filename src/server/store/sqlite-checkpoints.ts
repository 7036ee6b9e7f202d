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
      const entry = { db, failures: 0 };
      entry.timer = setInterval(() => {
        try {
          db.pragma("wal_checkpoint(PASSIVE)");
          entry.failures = 0;
        } catch {
          if (++entry.failures < workerData.failuresBeforeFallback) return;
          clearInterval(entry.timer);
          parentPort.postMessage({ failed: message.open });
        }
      }, message.everyMs);
      open.set(message.open, entry);
    } catch {
      parentPort.postMessage({ failed: message.open });
    }
  } else if (message.close) {
    const entry = open.get(message.close);
    open.delete(message.close);
    if (entry) { clearInterval(entry.timer); entry.db.close(); }
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
    workerData: { driver: createRequire(import.meta.url).resolve("better-sqlite3"), failuresBeforeFallback: FAILURES_BEFORE_FALLBACK },
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
 * every `everyMs`. Should the worker fail to start, stop on its own, or fail
 * several ticks in a row, the store's connection checkpoints for itself again.
 */
export function checkpointInBackground(db: Database.Database, filename: string, everyMs = CHECKPOINT_EVERY_MS): Checkpoints {
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
  state.worker.postMessage({ open: id, filename: resolve(filename), everyMs });
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
