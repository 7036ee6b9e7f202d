import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteRunStore } from "./sqlite.ts";

const begin = (runId: string) => ({
  thread: { threadId: `t-${runId}`, agentId: "workdesk", ownerId: "kim" },
  run: { runId, userId: "kim", input: {}, log: [] },
  events: [],
  messages: [],
  resolvedToolCallIds: [],
});

/** The runs the database file holds by itself, without its write-ahead log: what a checkpoint has moved there. */
function runsInTheFileAlone(filename: string, dir: string): string[] {
  const copy = join(dir, "copy.db");
  copyFileSync(filename, copy);
  const db = new Database(copy, { readonly: true });
  try {
    return (db.prepare("SELECT run_id FROM runs").all() as Array<{ run_id: string }>).map((row) => row.run_id);
  } catch {
    return []; // copied mid-checkpoint, or before the tables were moved: look again
  } finally {
    db.close();
  }
}

describe("the SQLite store's checkpoints", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("are made by a worker thread: a run's start reaches the database file without a commit ever checkpointing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tether-checkpoints-"));
    dirs.push(dir);
    const filename = join(dir, "tether.db");
    const store = createSqliteRunStore({ filename, checkpointEveryMs: 20 });
    // A few rows are far from the thousand pages after which a commit would checkpoint itself.
    await store.beginRun(begin("r1"));
    const deadline = Date.now() + 5000;
    while (!runsInTheFileAlone(filename, dir).includes("r1") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runsInTheFileAlone(filename, dir)).toEqual(["r1"]);
    await store.close();
    // Closed, the worker's connection is gone too: the last connection removes the log, and the file opens again.
    expect(existsSync(`${filename}-wal`)).toBe(false);
    const again = createSqliteRunStore({ filename });
    expect((await again.getRun("r1"))?.runId).toBe("r1");
    await again.close();
  });
});
