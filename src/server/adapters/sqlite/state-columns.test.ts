import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType } from "@ag-ui/core";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { UNSTORED_EVENT_LIMIT } from "../../store/index.ts";
import { encodePage } from "../../store/shared/index.ts";
import { addReportTotals } from "./reports.ts";
import { createSqliteRunStore } from "./run-store.ts";
import { applyRunInputSchema } from "./run-inputs.ts";
import { SCHEMA } from "./schema.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const at = "2025-01-15T09:00:00.000Z";
const columnsOf = (db: Database.Database, table: string) => (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((column) => column.name);

/** A file as the version before shared state made it (its applySchema), holding a finished run and one left running. */
function fileMadeBefore(): string {
  const folder = mkdtempSync(join(tmpdir(), "tether-state-"));
  folders.push(folder);
  const filename = join(folder, "tether.db");
  const db = new Database(filename);
  db.exec(SCHEMA);
  addReportTotals(db);
  applyRunInputSchema(db);
  expect(columnsOf(db, "threads")).not.toContain("state");
  expect(columnsOf(db, "runs")).not.toContain("state");
  db.prepare("INSERT INTO threads (thread_id, agent_id, owner_id, created_at, updated_at) VALUES ('t1', 'recipes', 'sam', ?, ?)").run(at, at);
  const run = db.prepare(
    `INSERT INTO runs (run_id, thread_key, thread_id, agent_id, user_id, status, input, log, created_at, ordinal)
     VALUES (?, 1, 't1', 'recipes', 'sam', ?, '{}', '[]', ?, ?)`,
  );
  run.run("r1", "finished", at, 1);
  run.run("r2", "running", at, 2);
  const started = { seq: 1, event: { type: EventType.RUN_STARTED, threadId: "t1", runId: "r2" } };
  db.prepare("INSERT INTO event_pages (run_key, first_seq, last_seq, body) VALUES (2, 1, 1, ?)").run(encodePage([started]));
  db.close();
  return filename;
}

describe("shared state in a SQLite file made before it was stored", () => {
  it("opens the file, reads its threads and runs as having no state, ends its lost run without a state snapshot, then stores state", async () => {
    const filename = fileMadeBefore();
    const store = createSqliteRunStore({ filename });
    try {
      expect(await store.getThread("t1")).not.toHaveProperty("state");
      for (const run of await store.listRuns("t1")) expect(run).not.toHaveProperty("state");
      expect(await store.getActiveRun("t1")).not.toHaveProperty("state");

      expect(await store.recoverInterruptedRuns()).toBe(1);
      expect((await store.readEvents("r2")).map(({ seq, event }) => [seq, event.type])).toEqual([
        [1, EventType.RUN_STARTED],
        [UNSTORED_EVENT_LIMIT + 2, EventType.MESSAGES_SNAPSHOT],
        [UNSTORED_EVENT_LIMIT + 3, EventType.RUN_ERROR],
      ]);

      const state = { recipe: { title: "Risotto", servings: 2 }, tags: ["rice", "ünïcödé ✓"] };
      await store.beginRun({
        thread: { threadId: "t1", agentId: "recipes", ownerId: "sam" },
        run: { runId: "r3", userId: "sam", input: {}, log: [] },
        events: [],
        messages: [],
        resolvedToolCallIds: [],
        state,
      });
      await store.commitStep({ threadId: "t1", runId: "r3", messages: [], pending: [], state: { ...state, step: 1 } });
      expect((await store.getThread("t1"))?.state).toEqual({ ...state, step: 1 });
      expect((await store.getRun("r3"))?.state).toEqual({ ...state, step: 1 });
      expect(await store.getRun("r1")).not.toHaveProperty("state");
    } finally {
      await store.close();
    }

    // Opened again, the columns are there already: nothing is added twice, and the state is kept.
    const reopened = createSqliteRunStore({ filename });
    try {
      expect((await reopened.getThread("t1"))?.state).toMatchObject({ step: 1 });
    } finally {
      await reopened.close();
    }
    const db = new Database(filename, { readonly: true });
    expect(columnsOf(db, "threads").filter((name) => name === "state")).toEqual(["state"]);
    expect(columnsOf(db, "runs").filter((name) => name === "state")).toEqual(["state"]);
    db.close();
  });
});
