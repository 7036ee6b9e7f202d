import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { assistantMessage, userMessage } from "../../../test/fixtures/messages.ts";
import { createSqliteRunStore } from "./sqlite.ts";
import { SCHEMA } from "./sqlite-schema.ts";
import { prepareStatements } from "./sqlite-statements.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("the SQLite schema", () => {
  it("finds a thread's running run among the thread's own runs, not among every running run of the server (each run's start asks)", () => {
    const db = new Database(":memory:");
    db.exec(SCHEMA);
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${prepareStatements(db).getActiveRun.source}`).all("thread_1") as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail)).toEqual(["SEARCH runs USING INDEX runs_by_thread (thread_id=?)"]);
    db.close();
  });

  it("brings a database made before messages could be set aside up to date, keeping what it holds", async () => {
    const folder = mkdtempSync(join(tmpdir(), "tether-schema-"));
    folders.push(folder);
    const filename = join(folder, "tether.db");
    const old = new Database(filename);
    old.exec(SCHEMA.replace(/\s*-- The run that regenerated[^\n]*\n\s*superseded_by TEXT,/, ""));
    expect((old.pragma("table_info(messages)") as Array<{ name: string }>).map((column) => column.name)).not.toContain("superseded_by");
    old.prepare("INSERT INTO threads VALUES ('thread_1', 'workdesk', 'kim', 'then', 'then')").run();
    old
      .prepare(
        "INSERT INTO runs (run_id, thread_id, agent_id, user_id, status, input, log, created_at, ordinal) VALUES ('run_1', 'thread_1', 'workdesk', 'kim', 'finished', '{}', '[]', 'then', 1)",
      )
      .run();
    const question = userMessage("m1", "open the list");
    const answer = assistantMessage("m2", "Opened.");
    old.prepare("INSERT INTO messages VALUES ('thread_1', 0, 'm1', 'run_1', ?)").run(JSON.stringify(question));
    old.prepare("INSERT INTO messages VALUES ('thread_1', 1, 'm2', 'run_1', ?)").run(JSON.stringify(answer));
    old.close();

    const store = createSqliteRunStore({ filename });
    try {
      expect(await store.getMessages("thread_1")).toEqual([question, answer]);
      await store.beginRun({
        thread: { threadId: "thread_1", agentId: "workdesk", ownerId: "kim" },
        run: { runId: "run_2", userId: "kim", input: {}, log: [] },
        events: [],
        messages: [],
        resolvedToolCallIds: [],
        supersede: { afterMessageId: "m1", count: 1 },
      });
      expect(await store.getMessages("thread_1")).toEqual([question]);
    } finally {
      await store.close();
    }
  });
});
