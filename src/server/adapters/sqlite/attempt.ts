import { setTimeout as sleep } from "node:timers/promises";
import { TetherError, isTetherError } from "../../../protocol/index.ts";

/** SQLite result codes that mean "someone else holds the lock": worth waiting for. */
const BUSY = new Set(["SQLITE_BUSY", "SQLITE_LOCKED"]);
/** Codes that mean the storage itself is in trouble (full disk, I/O error, read-only): the caller may try again later. */
const UNAVAILABLE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|PROTOCOL|NOLFS|NOMEM)/;

/** Pauses between tries while the lock is held elsewhere: short first, so a brief lock costs little. */
export const PAUSES_MS = [1, 2, 5, 10, 20, 50, 100];

export interface SqliteAttemptOptions {
  /** How long to keep trying while another connection holds the lock. Default 2 s. */
  waitMs?: number;
  /** What was being done, for the error message ("start the run"). */
  what?: string;
}

/**
 * Runs one synchronous SQLite operation (a statement or a transaction), and
 * while another connection holds the lock, tries again after a pause instead
 * of blocking: better-sqlite3 is synchronous, so a busy timeout inside SQLite
 * would freeze the whole event loop, health checks and other runs' streams
 * included. Connections are opened with `busy_timeout = 0` for that reason.
 *
 * Storage trouble (a lock held past `waitMs`, a full disk, an I/O error)
 * becomes a `store_unavailable` TetherError; anything else is thrown as is.
 *
 * @example
 * await sqliteAttempt(() => closeRequest.immediate(id), { what: "close the request" });
 */
export async function sqliteAttempt<T>(operation: () => T, options: SqliteAttemptOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.waitMs ?? 2000);
  for (let attempt = 0; ; attempt++) {
    try {
      return operation();
    } catch (error) {
      const code = sqliteCode(error);
      if (code && BUSY.has(code) && Date.now() < deadline) {
        await sleep(PAUSES_MS[Math.min(attempt, PAUSES_MS.length - 1)]);
        continue;
      }
      throw toStoreError(error, options.what);
    }
  }
}

/** A SQLite failure that is about the storage, not the request, as `store_unavailable`; anything else unchanged. */
export function toStoreError(error: unknown, what = "reach the database"): unknown {
  if (isTetherError(error)) return error;
  const code = sqliteCode(error);
  if (!code) return error;
  if (BUSY.has(code)) {
    return new TetherError("store_unavailable", `Could not ${what}: the database is locked by another connection. Try again in a moment.`, { cause: error });
  }
  if (UNAVAILABLE.test(code)) {
    const why = code.startsWith("SQLITE_FULL") ? "the disk is full" : `the database failed (${code})`;
    return new TetherError("store_unavailable", `Could not ${what}: ${why}. Try again once storage is back.`, { cause: error });
  }
  return error;
}

/** Whether SQLite said another connection holds the lock. */
export function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && BUSY.has(code);
}

export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}
