import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { threadRunChain } from "../../record/index.ts";
import { SCHEMA, applySchema } from "./schema.ts";
import { prepareStatements } from "./statements.ts";
import { createSqliteRunStore } from "./run-store.ts";

const history = [
  { id: "u1", role: "user", content: "what can I cook with rice?" },
  { id: "a1", role: "assistant", content: "Fried rice, or a risotto." },
  { id: "u2", role: "user", content: "the risotto, please" },
];
const clientInput = { threadId: "t1", runId: "r1", state: {}, messages: history, tools: [], context: [], forwardedProps: {} };
const serverInput = { threadId: "t2", runId: "r2", state: {}, tools: [], context: [], forwardedProps: {}, messageIds: ["m1"] };

/** A file as the version before stored it: every run's request inline in `runs.input`, no history tables. */
function fileMadeBefore(): string {
  const filename = join(mkdtempSync(join(tmpdir(), "tether-inputs-")), "tether.db");
  const db = new Database(filename);
  db.exec(SCHEMA);
  const thread = db.prepare("INSERT INTO threads (thread_id, agent_id, owner_id, created_at, updated_at) VALUES (?, 'recipes', 'sam', ?, ?)");
  const run = db.prepare(
    `INSERT INTO runs (run_id, thread_key, thread_id, agent_id, user_id, status, input, log, created_at, ordinal)
     VALUES (?, (SELECT thread_key FROM threads WHERE thread_id = ?), ?, 'recipes', 'sam', 'finished', ?, '[]', ?, 1)`,
  );
  const at = "2025-01-15T09:00:00.000Z";
  thread.run("t1", at, at);
  thread.run("t2", at, at);
  run.run("r1", "t1", "t1", JSON.stringify(clientInput), at);
  run.run("r2", "t2", "t2", JSON.stringify(serverInput), at);
  // A stateless run kept the messages its thread had not seen, as it still does.
  const message = db.prepare(
    "INSERT INTO messages (thread_key, position, message_id, run_id, body) VALUES ((SELECT thread_key FROM threads WHERE thread_id = 't1'), ?, ?, 'r1', ?)",
  );
  history.forEach((stored, position) => message.run(position, stored.id, JSON.stringify(stored)));
  db.close();
  return filename;
}

describe("run requests in a SQLite file made before histories were stored by content", () => {
  it("reads every old run's request back whole, lists the runs without them, and stores a new run's history apart", async () => {
    const store = createSqliteRunStore({ filename: fileMadeBefore() });
    try {
      expect(await store.readRunInput("r1")).toEqual(clientInput);
      expect(await store.readRunInput("r2")).toEqual(serverInput);
      expect(await store.listRuns("t1")).toEqual([expect.not.objectContaining({ input: expect.anything() })]);
      // An old run has no summary: the thread's chain reads its request to say what started it.
      const chain = await threadRunChain({ store, isLive: () => false }, (await store.getThread("t1"))!);
      expect(chain.runs[0]!.trigger).toEqual({ kind: "user-message", summary: "the risotto, please" });

      const next = { ...clientInput, runId: "r3", messages: [...history, { id: "a2", role: "assistant", content: "Here it is." }] };
      await store.beginRun({
        thread: { threadId: "t1", agentId: "recipes", ownerId: "sam" },
        run: { runId: "r3", userId: "sam", input: next, log: [] },
        events: [],
        messages: [],
        resolvedToolCallIds: [],
      });
      expect(JSON.stringify(await store.readRunInput("r3"))).toBe(JSON.stringify(next));
      expect(await store.readRunInput("r1")).toEqual(clientInput);
    } finally {
      await store.close();
    }
  });
});

describe("the SQLite statements that list and look up runs", () => {
  it("select no request column: a run's request is read by readRunInput alone", () => {
    const db = new Database(":memory:");
    applySchema(db);
    const statements = prepareStatements(db);
    for (const statement of [statements.getRun, statements.getActiveRun, statements.listRuns, statements.listRunLinks]) {
      const columns = statement.columns().map((column) => column.name);
      expect(columns).toContain("run_id");
      expect(columns.filter((name) => name.startsWith("input"))).toEqual([]);
    }
    db.close();
  });
});
