import type Database from "better-sqlite3";
import { PAUSES_MS, isBusy, sqliteCode, toStoreError } from "./attempt.ts";

interface Write {
  work: () => unknown;
  what: string;
  deadline: number;
  attempts: number;
  result?: { value: unknown } | { error: unknown };
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupCommit {
  /** Runs `work` (a better-sqlite3 transaction function, or one statement) in the next group's transaction. */
  run<T>(work: () => T, options: { waitMs: number; what: string }): Promise<T>;
  /** Commits what is queued now, before the database closes. */
  flush(): void;
}

/**
 * Group commit: the writes asked for in one turn of the event loop (many
 * runs' starts, steps and ends, under load) go to the database as one
 * transaction, each in a savepoint of its own, so one refused write (a
 * thread already busy) rolls back alone and the others commit. One commit
 * instead of many is what SQLite's cost is made of: its WAL writes and locks
 * are per commit, not per row. A write resolves only once its group is
 * committed. While another connection holds the lock, the group waits and
 * tries again, each write until its own deadline; then it is refused as
 * `store_unavailable`.
 */
export function createGroupCommit(db: Database.Database): GroupCommit {
  let queue: Write[] = [];
  let scheduled = false;

  const runGroup = db.transaction((group: Write[]) => {
    for (const write of group) {
      try {
        // A transaction function nested in this one is a savepoint: a throw rolls back that write only.
        write.result = { value: write.work() };
      } catch (error) {
        // The storage failing (a full disk, an I/O error) fails the group; a refusal fails its write.
        if (sqliteCode(error)) throw error;
        write.result = { error };
      }
    }
  });

  const commit = () => {
    scheduled = false;
    const group = queue;
    queue = [];
    if (group.length === 0) return;
    try {
      runGroup.immediate(group);
    } catch (error) {
      for (const write of group) write.result = undefined;
      if (!isBusy(error)) {
        for (const write of group) write.reject(toStoreError(error, write.what));
        return;
      }
      const now = Date.now();
      const waiting = group.filter((write) => {
        if (now < write.deadline) return true;
        write.reject(toStoreError(error, write.what));
        return false;
      });
      if (waiting.length === 0) return;
      const attempts = Math.max(...waiting.map((write) => write.attempts++));
      setTimeout(
        () => {
          queue = [...waiting, ...queue];
          schedule();
        },
        PAUSES_MS[Math.min(attempts, PAUSES_MS.length - 1)],
      );
      return;
    }
    for (const write of group) {
      const result = write.result!;
      if ("value" in result) write.resolve(result.value);
      else write.reject(toStoreError(result.error, write.what));
    }
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(commit);
  };

  return {
    run<T>(work: () => T, options: { waitMs: number; what: string }) {
      return new Promise<T>((resolve, reject) => {
        queue.push({ work, what: options.what, deadline: Date.now() + options.waitMs, attempts: 0, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },
    flush: commit,
  };
}
