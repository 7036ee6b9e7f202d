import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

export interface Checkpoints {
  /** Stops the worker and closes its connection; the store's own close then checkpoints what is left. */
  stop(): Promise<void>;
}

// The worker: a connection of its own, a passive checkpoint at each tick. Plain
// JavaScript run with `eval`, so it needs no file of its own in the package.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.filename);
db.pragma("busy_timeout = 0");
db.pragma("synchronous = NORMAL");
const timer = setInterval(() => {
  try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {} // a busy or failing tick is tried again at the next
}, workerData.everyMs);
parentPort.once("message", () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

/**
 * Moves the WAL's checkpoints off the event loop. SQLite checkpoints inside
 * the commit that crosses its threshold, and a checkpoint copies the log into
 * the database and waits for the disk twice: under load, a few milliseconds in
 * every other commit, during which no stream moves. Here the store's
 * connection never checkpoints; a worker thread with its own connection does,
 * passively (it never blocks the store's reads or writes), every `everyMs`.
 * Should the worker fail to start or stop on its own, the connection
 * checkpoints for itself again.
 */
export function checkpointInBackground(db: Database.Database, filename: string, everyMs = 500): Checkpoints {
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver: createRequire(import.meta.url).resolve("better-sqlite3"), filename, everyMs } });
  } catch {
    return { stop: async () => {} };
  }
  worker.unref();
  db.pragma("wal_autocheckpoint = 0");
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  const fallBack = () => {
    if (!stopping && db.open) db.pragma("wal_autocheckpoint = 1000");
  };
  worker.once("error", fallBack);
  worker.once("exit", fallBack);
  return {
    async stop() {
      stopping = true;
      worker.postMessage("stop");
      await exited;
    },
  };
}
