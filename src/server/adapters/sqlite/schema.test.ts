import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType } from "@ag-ui/core";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { assistantMessage, toolCall, userMessage } from "../../../../test/fixtures/messages.ts";
import { encodePage } from "../../store/shared/index.ts";
import { createSqliteRunStore } from "./run-store.ts";
import { applySchema, SCHEMA } from "./schema.ts";
import { prepareStatements } from "./statements.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const databaseFile = () => {
  const folder = mkdtempSync(join(tmpdir(), "tether-schema-"));
  folders.push(folder);
  return join(folder, "tether.db");
};

/** The tables as Tether made them while every table keyed its rows by the clients' text ids, before messages could be set aside. */
const TEXT_KEYED_SCHEMA = `
CREATE TABLE IF NOT EXISTS threads (
  thread_id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
  thread_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  message_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (thread_id, position),
  UNIQUE (thread_id, message_id)
);
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  parent_run_id TEXT,
  trigger TEXT,
  status TEXT NOT NULL,
  outcome TEXT,
  error TEXT,
  usage TEXT,
  input TEXT NOT NULL,
  log TEXT NOT NULL,
  created_at TEXT NOT NULL,
  finished_at TEXT,
  ordinal INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_thread ON runs (thread_id, ordinal);
CREATE INDEX IF NOT EXISTS runs_running ON runs (status) WHERE status = 'running';
CREATE TABLE IF NOT EXISTS event_pages (
  run_id TEXT NOT NULL,
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  body BLOB NOT NULL,
  PRIMARY KEY (run_id, first_seq)
);
CREATE TABLE IF NOT EXISTS pending_tool_calls (
  thread_id TEXT NOT NULL,
  tool_call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  run_id TEXT NOT NULL,
  arguments TEXT NOT NULL,
  PRIMARY KEY (thread_id, tool_call_id)
);
CREATE TABLE IF NOT EXISTS interrupts (
  interrupt_id TEXT PRIMARY KEY,
  thread_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,
  answer TEXT,
  resolved_by_run_id TEXT
);
CREATE INDEX IF NOT EXISTS interrupts_pending ON interrupts (thread_id) WHERE status = 'pending';
CREATE TABLE IF NOT EXISTS reports (
  run_id TEXT NOT NULL,
  received_at TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reports_by_run ON reports (run_id);
CREATE TABLE IF NOT EXISTS run_facts (
  run_id TEXT NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS run_facts_by_run ON run_facts (run_id);
`;

const question = userMessage("m1", "open the list");
const navigate = assistantMessage("m2", undefined, [toolCall("call_1", "navigate", { screen: "requests" })]);
const events = [
  { seq: 1, event: { type: EventType.RUN_STARTED, threadId: "thread_b", runId: "run_1" } },
  { seq: 2, event: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m2", delta: "Opening" } },
];

/** A text-keyed file with two threads (keys go in the order rows were written, not by name), and a run with messages, events, a pending call and facts. */
function writeTextKeyedFile(filename: string) {
  const old = new Database(filename);
  old.exec(TEXT_KEYED_SCHEMA);
  old.prepare("INSERT INTO threads VALUES ('thread_b', 'workdesk', 'kim', '2026-01-02', '2026-01-02')").run();
  old.prepare("INSERT INTO threads VALUES ('thread_a', 'workdesk', 'lee', '2026-01-01', '2026-01-01')").run();
  const run = old.prepare(
    "INSERT INTO runs (run_id, thread_id, agent_id, user_id, status, input, log, created_at, ordinal) VALUES (?, ?, 'workdesk', ?, 'finished', '{}', '[]', ?, ?)",
  );
  run.run("run_0", "thread_a", "lee", "2026-01-01", 1);
  run.run("run_1", "thread_b", "kim", "2026-01-02", 1);
  old.prepare("INSERT INTO messages VALUES ('thread_b', 0, 'm1', 'run_1', ?)").run(JSON.stringify(question));
  old.prepare("INSERT INTO messages VALUES ('thread_b', 1, 'm2', 'run_1', ?)").run(JSON.stringify(navigate));
  old.prepare("INSERT INTO event_pages VALUES ('run_1', 1, 2, ?)").run(encodePage(events));
  old.prepare("INSERT INTO pending_tool_calls VALUES ('thread_b', 'call_1', 'navigate', 'run_1', '{}')").run();
  old.prepare("INSERT INTO run_facts VALUES ('run_1', ?)").run(JSON.stringify({ kind: "trace", traceId: "t1", spanId: "s1" }));
  old.prepare("INSERT INTO run_facts VALUES ('run_1', ?)").run(JSON.stringify({ kind: "tools", tools: [] }));
  return old;
}

describe("the SQLite schema", () => {
  it("finds a thread's running run among the thread's own runs, not among every running run of the server (each run's start asks)", () => {
    const db = new Database(":memory:");
    applySchema(db);
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${prepareStatements(db).getActiveRun.source}`).all("thread_1") as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail)).toEqual([
      "SEARCH runs USING INDEX runs_by_thread (thread_key=?)",
      "SCALAR SUBQUERY 1",
      "SEARCH threads USING COVERING INDEX sqlite_autoindex_threads_1 (thread_id=?)",
    ]);
    db.close();
  });

  it("keys a run's rows by integers in the order threads and runs were stored, whatever the clients' ids", async () => {
    const filename = databaseFile();
    const store = createSqliteRunStore({ filename });
    for (const [threadId, runId] of [
      ["thread_z", "run_z"],
      ["thread_a", "run_a"],
      ["thread_m", "run_m"],
    ] as const) {
      await store.beginRun({
        thread: { threadId, agentId: "workdesk", ownerId: "kim" },
        run: { runId, userId: "kim", input: {}, log: [] },
        events,
        messages: [question],
        resolvedToolCallIds: [],
        facts: [{ kind: "tools" }],
      });
    }
    await store.close();
    const db = new Database(filename, { readonly: true });
    const keys = (sql: string) => (db.prepare(sql).all() as Array<{ key: number }>).map((row) => row.key);
    expect(keys("SELECT thread_key AS key FROM messages ORDER BY rowid")).toEqual([1, 2, 3]);
    expect(keys("SELECT run_key AS key FROM event_pages ORDER BY rowid")).toEqual([1, 2, 3]);
    expect(keys("SELECT run_key AS key FROM run_facts ORDER BY rowid")).toEqual([1, 2, 3]);
    expect(db.prepare("SELECT run_id, thread_key FROM runs ORDER BY run_key").all()).toEqual([
      { run_id: "run_z", thread_key: 1 },
      { run_id: "run_a", thread_key: 2 },
      { run_id: "run_m", thread_key: 3 },
    ]);
    db.close();
  });

  it("brings a file whose tables were keyed by text ids, made before messages could be set aside, up to date, keeping what it holds", async () => {
    const filename = databaseFile();
    const old = writeTextKeyedFile(filename);
    // An app's own objects in the same file, which only look like Tether's.
    old.exec(`CREATE TABLE workdesk_requests (id TEXT PRIMARY KEY, status TEXT);
      CREATE VIEW request_counts AS SELECT count(*) AS runs FROM workdesk_requests;
      CREATE TRIGGER request_closed AFTER UPDATE ON workdesk_requests BEGIN SELECT 'status messages'; END;`);
    old.close();

    const store = createSqliteRunStore({ filename });
    try {
      expect(await store.getMessages("thread_b")).toEqual([question, navigate]);
      expect(await store.readEvents("run_1")).toEqual(events);
      expect(await store.getPendingToolCalls("thread_b")).toEqual([{ toolCallId: "call_1", toolName: "navigate", runId: "run_1", arguments: "{}" }]);
      expect(await store.listFacts("run_1")).toEqual([
        { kind: "trace", traceId: "t1", spanId: "s1" },
        { kind: "tools", tools: [] },
      ]);
      expect((await store.getThread("thread_a"))?.ownerId).toBe("lee");
      expect((await store.listRuns("thread_a")).map((run) => run.runId)).toEqual(["run_0"]);

      await store.beginRun({
        thread: { threadId: "thread_b", agentId: "workdesk", ownerId: "kim" },
        run: { runId: "run_2", userId: "kim", input: {}, log: [] },
        events: [],
        messages: [],
        resolvedToolCallIds: ["call_1"],
        supersede: { afterMessageId: "m1", count: 1 },
      });
      expect(await store.getMessages("thread_b")).toEqual([question]);
      expect(await store.getPendingToolCalls("thread_b")).toEqual([]);
      expect((await store.listRuns("thread_b")).map((run) => run.runId)).toEqual(["run_1", "run_2"]);
    } finally {
      await store.close();
    }
    const db = new Database(filename, { readonly: true });
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((row) => row.name);
    expect(db.prepare("SELECT * FROM request_counts").get()).toEqual({ runs: 0 });
    expect(tables).toEqual([
      "event_pages",
      "history_contents",
      "history_links",
      "interrupts",
      "messages",
      "pending_tool_calls",
      "report_totals",
      "reports",
      "run_facts",
      "runs",
      "sqlite_sequence",
      "threads",
      "workdesk_requests",
    ]);
    expect(db.prepare("SELECT thread_id, thread_key FROM threads ORDER BY thread_key").all()).toEqual([
      { thread_id: "thread_b", thread_key: 1 },
      { thread_id: "thread_a", thread_key: 2 },
    ]);
    db.close();
  });

  it("counts the reports a file made before report totals holds, so its runs' caps hold", async () => {
    const filename = databaseFile();
    const old = new Database(filename);
    old.exec(SCHEMA);
    old.exec(`INSERT INTO threads (thread_id, agent_id, owner_id, created_at, updated_at) VALUES ('thread_1', 'workdesk', 'kim', 'now', 'now');
      INSERT INTO runs (run_id, thread_key, thread_id, agent_id, user_id, status, input, log, created_at, ordinal)
        VALUES ('run_1', 1, 'thread_1', 'workdesk', 'kim', 'finished', '{}', '[]', 'now', 1);
      INSERT INTO reports VALUES ('run_1', 'now', '{"kind":"renderer-error","message":"a"}'), ('run_1', 'now', '{"kind":"renderer-error","message":"é"}');`);
    old.close();

    const store = createSqliteRunStore({ filename });
    try {
      const refusal = store.addReport("run_1", { kind: "x" }, { maxReportsPerRun: 3, maxReportBytesPerRun: 90 });
      await expect(refusal).rejects.toMatchObject({ code: "report_limit_exceeded", message: expect.stringContaining("has 79") });
      await expect(store.addReport("run_1", { kind: "x" }, { maxReportsPerRun: 2, maxReportBytesPerRun: 1000 })).rejects.toMatchObject({
        code: "report_limit_exceeded",
      });
      await store.addReport("run_1", { kind: "x" }, { maxReportsPerRun: 3, maxReportBytesPerRun: 91 });
      expect(await store.listReports("run_1")).toHaveLength(3);
    } finally {
      await store.close();
    }
  });

  it("refuses, with the file left as it was, a text-keyed file holding a row whose run is not stored", () => {
    const filename = databaseFile();
    const old = writeTextKeyedFile(filename);
    old.prepare("INSERT INTO event_pages VALUES ('run_gone', 1, 1, ?)").run(encodePage(events.slice(0, 1)));
    old.close();

    expect(() => createSqliteRunStore({ filename })).toThrow(
      expect.objectContaining({
        code: "store_unavailable",
        message: expect.stringMatching(
          /1 row\(s\) of event_pages belong to no stored run \(SELECT rowid, \* FROM event_pages WHERE run_id NOT IN \(SELECT run_id FROM runs\) finds them\)/,
        ),
      }),
    );
    const db = new Database(filename, { readonly: true });
    expect((db.pragma("table_info(threads)") as Array<{ name: string }>).map((column) => column.name)).not.toContain("thread_key");
    expect(db.prepare("SELECT COUNT(*) AS pages FROM event_pages").get()).toEqual({ pages: 2 });
    db.close();
  });

  it("never hands a key out twice: rows left behind by a thread and run deleted by hand stay out of the next user's thread", async () => {
    const filename = databaseFile();
    const start = (threadId: string, ownerId: string, runId: string) => ({
      thread: { threadId, agentId: "workdesk", ownerId },
      run: { runId, userId: ownerId, input: {}, log: [] },
      events,
      messages: [userMessage(`m_${runId}`, `${ownerId}'s question`)],
      resolvedToolCallIds: [],
      facts: [{ kind: "tools" as const, tools: [] }],
    });
    let store = createSqliteRunStore({ filename });
    await store.beginRun(start("thread_kim", "kim", "run_kim"));
    await store.close();
    const operator = new Database(filename);
    operator.exec("DELETE FROM runs WHERE thread_id = 'thread_kim'; DELETE FROM threads WHERE thread_id = 'thread_kim';");
    operator.close();

    store = createSqliteRunStore({ filename });
    try {
      await store.beginRun(start("thread_lee", "lee", "run_lee"));
      expect(await store.getMessages("thread_lee")).toEqual([userMessage("m_run_lee", "lee's question")]);
      expect(await store.readEvents("run_lee")).toEqual(events);
      expect(await store.listFacts("run_lee")).toEqual([{ kind: "tools", tools: [] }]);
    } finally {
      await store.close();
    }
  });

  it("refuses, with the file left as it was, to rebuild tables that someone else's view, trigger, index or table is built on", () => {
    const filename = databaseFile();
    const old = writeTextKeyedFile(filename);
    old.exec(`CREATE VIEW thread_owners AS SELECT thread_id, owner_id FROM threads;
      CREATE TABLE audit (what TEXT);
      CREATE TRIGGER audit_threads AFTER INSERT ON threads BEGIN INSERT INTO audit VALUES (new.thread_id); END;
      CREATE TABLE app_notes (thread_id TEXT REFERENCES threads (thread_id), note TEXT);
      CREATE INDEX runs_by_user ON runs (user_id);
      CREATE VIRTUAL TABLE message_search USING fts5 (body, content = 'messages');
      CREATE TABLE workdesk_requests (id TEXT PRIMARY KEY, status TEXT);`);
    old.close();

    expect(() => createSqliteRunStore({ filename })).toThrow(
      expect.objectContaining({
        code: "store_unavailable",
        message: expect.stringContaining(
          "view thread_owners, trigger audit_threads, table app_notes, index runs_by_user, table message_search are built on them",
        ),
      }),
    );
    const db = new Database(filename, { readonly: true });
    expect((db.pragma("table_info(threads)") as Array<{ name: string }>).map((column) => column.name)).not.toContain("thread_key");
    expect(db.prepare("SELECT * FROM thread_owners").all()).toEqual([
      { thread_id: "thread_b", owner_id: "kim" },
      { thread_id: "thread_a", owner_id: "lee" },
    ]);
    db.close();
  });

  it("waits for another connection's write before rebuilding, and refuses, with the file left as it was, when it does not end", () => {
    const filename = databaseFile();
    writeTextKeyedFile(filename).close();
    const shell = new Database(filename);
    shell.pragma("journal_mode = WAL");
    shell.exec("BEGIN IMMEDIATE; INSERT INTO reports VALUES ('run_1', 'now', '{}')");
    try {
      const startedAt = Date.now();
      expect(() => createSqliteRunStore({ filename })).toThrow(
        expect.objectContaining({ code: "store_unavailable", message: expect.stringMatching(/another connection kept it locked for 5 s/) }),
      );
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(4900);
    } finally {
      shell.exec("ROLLBACK");
    }
    expect((shell.pragma("table_info(threads)") as Array<{ name: string }>).map((column) => column.name)).not.toContain("thread_key");
    shell.close();
    const store = createSqliteRunStore({ filename });
    return store.close();
  });

  it("refuses, with the file left as it was, to rebuild a table someone added a column to, whose data the rebuild would lose", () => {
    const filename = databaseFile();
    const old = writeTextKeyedFile(filename);
    old.exec("ALTER TABLE runs ADD COLUMN note TEXT; UPDATE runs SET note = 'keep me'");
    old.close();

    expect(() => createSqliteRunStore({ filename })).toThrow(
      expect.objectContaining({ code: "store_unavailable", message: expect.stringContaining("runs.note is not a column Tether made") }),
    );
    const db = new Database(filename, { readonly: true });
    expect(db.prepare("SELECT DISTINCT note FROM runs").all()).toEqual([{ note: "keep me" }]);
    db.close();
  });

  it("leaves the connection never waiting for a lock, after a rebuild and after a refusal (a wait would block the event loop)", () => {
    for (const extra of ["", "ALTER TABLE runs ADD COLUMN note TEXT"]) {
      const filename = databaseFile();
      const old = writeTextKeyedFile(filename);
      old.exec(extra);
      old.close();
      const db = new Database(filename);
      if (extra) expect(() => applySchema(db)).toThrow(expect.objectContaining({ code: "store_unavailable" }));
      else applySchema(db);
      expect(db.pragma("busy_timeout", { simple: true })).toBe(0);
      db.close();
    }
  });
});
