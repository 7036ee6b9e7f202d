import type Database from "better-sqlite3";
import { TetherError } from "../../protocol/index.ts";

/** How each table an earlier Tether keyed by the clients' text ids is copied onto integer keys, in the order written. */
const COPIES: Record<string, string> = {
  threads: `INSERT INTO threads (thread_id, agent_id, owner_id, created_at, updated_at)
    SELECT thread_id, agent_id, owner_id, created_at, updated_at FROM text_keyed_threads ORDER BY created_at, rowid`,
  runs: `INSERT INTO runs (run_id, thread_key, thread_id, agent_id, user_id, parent_run_id, trigger, status, outcome, error, usage, input, log,
                      created_at, finished_at, ordinal)
    SELECT r.run_id, t.thread_key, r.thread_id, r.agent_id, r.user_id, r.parent_run_id, r.trigger, r.status, r.outcome, r.error, r.usage,
           r.input, r.log, r.created_at, r.finished_at, r.ordinal
    FROM text_keyed_runs r JOIN threads t ON t.thread_id = r.thread_id ORDER BY r.created_at, r.rowid`,
  messages: `INSERT INTO messages (thread_key, position, message_id, run_id, body, superseded_by)
    SELECT t.thread_key, m.position, m.message_id, m.run_id, m.body, m.superseded_by
    FROM text_keyed_messages m JOIN threads t ON t.thread_id = m.thread_id ORDER BY t.thread_key, m.position`,
  event_pages: `INSERT INTO event_pages (run_key, first_seq, last_seq, body)
    SELECT r.run_key, p.first_seq, p.last_seq, p.body FROM text_keyed_event_pages p JOIN runs r ON r.run_id = p.run_id ORDER BY r.run_key, p.first_seq`,
  pending_tool_calls: `INSERT INTO pending_tool_calls (thread_key, tool_call_id, tool_name, run_id, arguments)
    SELECT t.thread_key, c.tool_call_id, c.tool_name, c.run_id, c.arguments
    FROM text_keyed_pending_tool_calls c JOIN threads t ON t.thread_id = c.thread_id ORDER BY c.rowid`,
  run_facts: `INSERT INTO run_facts (run_key, body) SELECT r.run_key, f.body FROM text_keyed_run_facts f JOIN runs r ON r.run_id = f.run_id ORDER BY f.rowid`,
};
/** Indexes on those tables whose names the new tables reuse. */
const REUSED_INDEX_NAMES = ["runs_by_thread", "runs_running", "run_facts_by_run"];

const columnsOf = (db: Database.Database, table: string) => (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((column) => column.name);

/** A file an earlier Tether made keys its threads by `thread_id` alone. */
export function isTextKeyed(db: Database.Database): boolean {
  const columns = columnsOf(db, "threads");
  return columns.length > 0 && !columns.includes("thread_key");
}

/**
 * Rebuilds a text-keyed file's tables on integer keys, in one transaction: the
 * old tables are renamed aside, the new ones made by `schema`, every row copied
 * across in the order it was written, and the old tables dropped. A row that
 * cannot be copied, or any other failure, leaves the file as it was.
 */
export function rekeyOnIntegers(db: Database.Database, schema: string): void {
  db.transaction(() => {
    // Older still: made before messages could be set aside, or before runs kept facts.
    if (!columnsOf(db, "messages").includes("superseded_by")) db.exec("ALTER TABLE messages ADD COLUMN superseded_by TEXT");
    const tables = Object.keys(COPIES).filter((table) => columnsOf(db, table).length > 0);
    for (const index of REUSED_INDEX_NAMES) db.exec(`DROP INDEX IF EXISTS ${index}`);
    for (const table of tables) db.exec(`ALTER TABLE ${table} RENAME TO text_keyed_${table}`);
    db.exec(schema);
    // In the order of COPIES: parents before the rows that look up their keys.
    for (const table of tables) {
      db.exec(COPIES[table]!);
      const count = (name: string) => (db.prepare(`SELECT COUNT(*) AS rows FROM ${name}`).get() as { rows: number }).rows;
      const left = count(`text_keyed_${table}`) - count(table);
      // Every row has its thread or run in a file Tether wrote; one that has not would be lost, so nothing changes.
      if (left > 0) {
        throw new TetherError(
          "store_unavailable",
          `Could not bring the database ${db.name} up to date: ${left} row(s) of ${table} belong to no stored thread or run. The file is left as it was; open it with the Tether that wrote it.`,
        );
      }
    }
    for (const table of tables) db.exec(`DROP TABLE text_keyed_${table}`);
  })();
}
