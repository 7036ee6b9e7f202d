import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { TetherError } from "../../../protocol/index.ts";
import { cannotOpen } from "./database.ts";

export interface DatabaseLock {
  release(): void;
}

/**
 * Makes this process the only Tether process on a database file. A second
 * process on the same file would take the first one's live runs for crashed
 * ones and end them, and write events over theirs; it is refused instead,
 * naming the process that holds the file.
 *
 * The lock is a SQLite exclusive transaction on a file beside the database
 * (`<db>.lock`), held for as long as the process lives: the operating system
 * drops it when the process dies, however it dies, so a crash never leaves a
 * stale lock. The database itself stays open to others (a backup, an admin
 * shell), which wait their turn like any other connection.
 */
export function lockDatabaseFile(filename: string): DatabaseLock {
  const lockFile = `${filename}.lock`;
  const ownerFile = `${filename}.owner`;
  let lock: Database.Database;
  try {
    mkdirSync(dirname(filename), { recursive: true });
    lock = new Database(lockFile);
  } catch (error) {
    throw cannotOpen(filename, error);
  }
  try {
    lock.pragma("busy_timeout = 0");
    lock.pragma("locking_mode = EXCLUSIVE");
    lock.exec("BEGIN EXCLUSIVE");
    lock.exec("CREATE TABLE IF NOT EXISTS held (at TEXT)");
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code !== "SQLITE_BUSY") throw cannotOpen(filename, error);
    throw new TetherError("data_dir_in_use", inUseMessage(dirname(filename), readOwner(ownerFile)));
  }
  writeFileSync(ownerFile, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }));
  return {
    release() {
      if (lock.open) lock.close();
    },
  };
}

interface LockOwner {
  pid?: number;
  host?: string;
  since?: string;
}

function readOwner(ownerFile: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(ownerFile, "utf8")) as LockOwner;
  } catch {
    return undefined;
  }
}

/** Who holds the folder, in words: this very process (a second store opened on it) is told apart from another one. */
function inUseMessage(folder: string, owner: LockOwner | undefined): string {
  if (owner?.pid === process.pid && owner.host === hostname())
    return `The data directory ${folder} is already open in this process: give every app (or createAgentHandlers call) of it the same store (store: createSqliteRunStore(...)), or each its own data directory.`;
  const who = owner ? `pid ${owner.pid} on ${owner.host}, since ${owner.since}` : "its process id is unknown";
  return `The data directory ${folder} is in use by another Tether process (${who}). Stop that process, or give this one its own TETHER_DATA_DIR.`;
}
