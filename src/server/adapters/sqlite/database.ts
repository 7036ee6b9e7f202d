import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { TetherError, isTetherError } from "../../../protocol/index.ts";

/**
 * Opens a SQLite database the way Tether uses it: WAL (readers never wait for
 * a writer), `synchronous = NORMAL` (survives a process crash; only an OS
 * crash can lose the last commits), no busy timeout, because a wait inside
 * better-sqlite3 blocks the event loop (callers wait with `sqliteAttempt`
 * instead), and temporary storage in memory: a group commit's savepoints
 * journal every page they change, and past 64 KiB SQLite spills that journal
 * to a temporary file, created, written page by page and deleted per commit
 * (so a VACUUM or a large unindexed sort on this connection also runs in
 * memory). The folder is created when missing.
 */
export function openSqliteDatabase(filename: string): Database.Database {
  try {
    if (filename !== ":memory:") mkdirSync(dirname(filename), { recursive: true });
    const db = new Database(filename);
    db.pragma("busy_timeout = 0");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("temp_store = MEMORY");
    return db;
  } catch (error) {
    throw cannotOpen(filename, error);
  }
}

/**
 * Why a database could not be opened, in words that say what to do: a folder
 * that cannot be made or written, a path that is a file, a full disk.
 */
export function cannotOpen(filename: string, error: unknown): unknown {
  if (isTetherError(error)) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const why = typeof code === "string" ? `${(error as Error).message} (${code})` : String((error as Error)?.message ?? error);
  return new TetherError(
    "store_unavailable",
    `Could not open the database ${filename}: ${why}. Point TETHER_DATA_DIR at a folder this process can write, with free space.`,
    { cause: error },
  );
}
