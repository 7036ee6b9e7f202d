import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { BeginRun } from "../../store/index.ts";
import { createSqliteRunStore } from "./run-store.ts";
import { createGroupCommit } from "./group-commit.ts";

/** A run's start on its own thread, owned by kim. */
const begin = (threadId: string, runId: string): BeginRun => ({
  thread: { threadId, agentId: "workdesk", ownerId: "kim" },
  run: { runId, userId: "kim", input: { threadId, runId }, log: [] },
  events: [],
  messages: [{ id: `${runId}-u`, role: "user", content: "hello" }],
  resolvedToolCallIds: [],
});
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "ok",
    (error: { code?: string }) => error.code ?? "thrown",
  );

describe("the SQLite store's group commit", () => {
  const dirs: string[] = [];
  const fileOf = () => {
    const dir = mkdtempSync(join(tmpdir(), "tether-group-"));
    dirs.push(dir);
    return join(dir, "tether.db");
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("makes the writes asked in one turn one transaction: another connection sees none of them until all are in", async () => {
    const filename = fileOf();
    const db = new Database(filename);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (n INTEGER)");
    const outsider = new Database(filename, { readonly: true });
    const seenOutside: number[] = [];
    const group = createGroupCommit(db);
    const insert = db.prepare("INSERT INTO t (n) VALUES (?)");
    const count = outsider.prepare("SELECT count(*) AS n FROM t");
    const write = (n: number) =>
      group.run(
        () => {
          seenOutside.push((count.get() as { n: number }).n);
          insert.run(n);
        },
        { waitMs: 100, what: "write" },
      );
    await Promise.all([write(1), write(2), write(3)]);
    expect(seenOutside).toEqual([0, 0, 0]);
    expect(count.get()).toEqual({ n: 3 });
    outsider.close();
    db.close();
  });

  it("commits the writes asked in one turn together, and a refused one rolls back alone", async () => {
    const store = createSqliteRunStore({ filename: fileOf() });
    // Asked in one turn: one group. The second start on thread a is refused; the others are not.
    const outcomes = await Promise.all([
      codeOf(store.beginRun(begin("a", "a1"))),
      codeOf(store.beginRun(begin("a", "a2"))),
      codeOf(store.beginRun(begin("b", "b1"))),
      codeOf(store.beginRun(begin("b", "b1"))),
    ]);
    expect(outcomes).toEqual(["ok", "run_in_progress", "ok", "run_exists"]);
    expect((await store.getRun("a1"))?.status).toBe("running");
    expect(await store.getRun("a2")).toBeUndefined();
    expect((await store.getMessages("a")).map((message) => message.id)).toEqual(["a1-u"]);
    expect((await store.getRun("b1"))?.status).toBe("running");
    await store.close();
  });

  it("waits for a write lock held by another connection, each write until its own deadline", async () => {
    const filename = fileOf();
    const store = createSqliteRunStore({ filename, exclusive: false, startWaitMs: 2000 });
    await store.beginRun(begin("c", "c1"));
    const outsider = new Database(filename);
    outsider.exec("BEGIN IMMEDIATE");
    try {
      // The same group: the events may wait 50 ms, the step 10 s.
      const events = codeOf(store.appendEvents("c1", [{ seq: 1, event: { type: "RUN_STARTED", threadId: "c", runId: "c1" } as never }]));
      const step = codeOf(store.commitStep({ threadId: "c", runId: "c1", messages: [{ id: "c1-a", role: "assistant", content: "hi" }], pending: [] }));
      expect(await events).toBe("store_unavailable");
      await new Promise((resolve) => setTimeout(resolve, 200));
      outsider.exec("COMMIT");
      expect(await step).toBe("ok");
    } finally {
      if (outsider.inTransaction) outsider.exec("ROLLBACK");
      outsider.close();
    }
    expect((await store.getMessages("c")).map((message) => message.id)).toEqual(["c1-u", "c1-a"]);
    expect(await store.readEvents("c1")).toEqual([]);
    await store.close();
  });

  it("commits what is queued when the store closes", async () => {
    const filename = fileOf();
    const store = createSqliteRunStore({ filename });
    const started = store.beginRun(begin("d", "d1"));
    await store.close();
    await started;
    const reopened = createSqliteRunStore({ filename });
    expect((await reopened.getRun("d1"))?.status).toBe("running");
    await reopened.close();
  });
});
