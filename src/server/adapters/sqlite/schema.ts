import type Database from "better-sqlite3";
import { isTextKeyed, rekeyOnIntegers } from "./integer-keys.ts";
import { addReportTotals } from "./reports.ts";
import { applyRunInputSchema } from "./run-inputs.ts";

/** The SQLite store's tables. Created if missing; every statement is idempotent. */
export const SCHEMA = `
-- Threads and runs are found by the ids clients give them, which are random
-- (UUIDs), but every other table keys its rows by the integer the thread or run
-- got when it was stored. Keys in creation order put a story's writes at the
-- end of each index instead of on a random page of it: the peer harness's
-- story writes 40 log pages where it wrote 99. AUTOINCREMENT: a key is never
-- handed out twice, so rows left behind by a thread or run deleted by hand
-- never join a new one.
CREATE TABLE IF NOT EXISTS threads (
  thread_key INTEGER PRIMARY KEY AUTOINCREMENT,
  thread_id TEXT NOT NULL UNIQUE,
  agent_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
  thread_key INTEGER NOT NULL,
  position INTEGER NOT NULL,
  message_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  body TEXT NOT NULL,
  -- The run that regenerated the answer this message belonged to: set aside, kept for the record.
  superseded_by TEXT,
  PRIMARY KEY (thread_key, position),
  UNIQUE (thread_key, message_id)
);
CREATE TABLE IF NOT EXISTS runs (
  run_key INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL UNIQUE,
  thread_key INTEGER NOT NULL,
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
CREATE INDEX IF NOT EXISTS runs_by_thread ON runs (thread_key, ordinal);
CREATE INDEX IF NOT EXISTS runs_running ON runs (status) WHERE status = 'running';
-- The event log in pages of consecutive events: one row per batch the hub
-- flushes, not one per token. A page is a JSON array, deflated: streamed events
-- repeat their field names and ids, so a page shrinks some forty times, and the
-- log costs little more than the stream itself.
CREATE TABLE IF NOT EXISTS event_pages (
  run_key INTEGER NOT NULL,
  first_seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  body BLOB NOT NULL,
  PRIMARY KEY (run_key, first_seq)
);
CREATE TABLE IF NOT EXISTS pending_tool_calls (
  thread_key INTEGER NOT NULL,
  tool_call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  run_id TEXT NOT NULL,
  arguments TEXT NOT NULL,
  PRIMARY KEY (thread_key, tool_call_id)
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
-- What a run writes down for its record beside its events and messages (model
-- calls, the tools it offered), one JSON row each, in the order written.
CREATE TABLE IF NOT EXISTS run_facts (
  run_key INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS run_facts_by_run ON run_facts (run_key);
`;

/**
 * Columns added to the tables after they were first made, each added where a
 * file lacks it: its rows read NULL there, as "none".
 */
const ADDED_COLUMNS: ReadonlyArray<{ table: string; column: string; definition: string }> = [
  // An agent's shared state, JSON: the thread's current value, and each run's latest (see AgentState).
  { table: "threads", column: "state", definition: "TEXT" },
  { table: "runs", column: "state", definition: "TEXT" },
];

/** Creates what is missing, and brings a database made by an earlier version up to date. */
export function applySchema(db: Database.Database): void {
  if (isTextKeyed(db)) rekeyOnIntegers(db, SCHEMA);
  else db.exec(SCHEMA);
  addReportTotals(db);
  applyRunInputSchema(db);
  for (const { table, column, definition } of ADDED_COLUMNS) {
    const columns = (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((found) => found.name);
    if (!columns.includes(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  }
}
