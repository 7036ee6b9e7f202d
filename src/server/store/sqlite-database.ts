import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";

/**
 * Opens a SQLite database the way Tether uses it: WAL (readers never wait for
 * a writer), `synchronous = NORMAL` (survives a process crash; only an OS
 * crash can lose the last commits) and no busy timeout, because a wait inside
 * better-sqlite3 blocks the event loop: callers wait with `sqliteAttempt`
 * instead. The folder is created when missing.
 */
export function openSqliteDatabase(filename: string): Database.Database {
  if (filename !== ":memory:") mkdirSync(dirname(filename), { recursive: true });
  const db = new Database(filename);
  db.pragma("busy_timeout = 0");
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  return db;
}
