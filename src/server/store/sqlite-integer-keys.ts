import type Database from "better-sqlite3";
import { TetherError } from "../../protocol/index.ts";

/**
 * How each table an earlier Tether keyed by the clients' text ids is copied onto
 * integer keys, parents first, in the order its rows were written; and for the
 * others, the parent whose id finds their key.
 */
const COPIES: Record<string, { parent?: { table: string; id: string }; copy: string }> = {
  threads: {
    copy: `INSERT INTO threads (thread_id, agent_id, owner_id, created_at, updated_at)
      SELECT thread_id, agent_id, owner_id, created_at, updated_at FROM text_keyed_threads ORDER BY rowid`,
  },
  runs: {
    parent: { table: "threads", id: "thread_id" },
    copy: `INSERT INTO runs (run_id, thread_key, thread_id, agent_id, user_id, parent_run_id, trigger, status, outcome, error, usage, input, log,
                        created_at, finished_at, ordinal)
      SELECT r.run_id, t.thread_key, r.thread_id, r.agent_id, r.user_id, r.parent_run_id, r.trigger, r.status, r.outcome, r.error, r.usage,
             r.input, r.log, r.created_at, r.finished_at, r.ordinal
      FROM text_keyed_runs r JOIN threads t ON t.thread_id = r.thread_id ORDER BY r.rowid`,
  },
  messages: {
    parent: { table: "threads", id: "thread_id" },
    copy: `INSERT INTO messages (thread_key, position, message_id, run_id, body, superseded_by)
      SELECT t.thread_key, m.position, m.message_id, m.run_id, m.body, m.superseded_by
      FROM text_keyed_messages m JOIN threads t ON t.thread_id = m.thread_id ORDER BY m.rowid`,
  },
  event_pages: {
    parent: { table: "runs", id: "run_id" },
    copy: `INSERT INTO event_pages (run_key, first_seq, last_seq, body)
      SELECT r.run_key, p.first_seq, p.last_seq, p.body FROM text_keyed_event_pages p JOIN runs r ON r.run_id = p.run_id ORDER BY p.rowid`,
  },
  pending_tool_calls: {
    parent: { table: "threads", id: "thread_id" },
    copy: `INSERT INTO pending_tool_calls (thread_key, tool_call_id, tool_name, run_id, arguments)
      SELECT t.thread_key, c.tool_call_id, c.tool_name, c.run_id, c.arguments
      FROM text_keyed_pending_tool_calls c JOIN threads t ON t.thread_id = c.thread_id ORDER BY c.rowid`,
  },
  run_facts: {
    parent: { table: "runs", id: "run_id" },
    copy: `INSERT INTO run_facts (run_key, body) SELECT r.run_key, f.body FROM text_keyed_run_facts f JOIN runs r ON r.run_id = f.run_id ORDER BY f.rowid`,
  },
};
/** Indexes on those tables that the rebuilt tables have again, under the same names. */
const TETHER_INDEXES = ["runs_by_thread", "runs_running", "run_facts_by_run"];
/** How long the rebuild waits for another connection's write to end: it runs once, before the server listens. */
const LOCK_WAIT_MS = 5000;

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
 * cannot be copied, an object of someone else's built on those tables (which
 * the rebuild would break or drop), or any other failure leaves the file as it
 * was.
 */
export function rekeyOnIntegers(db: Database.Database, schema: string): void {
  refuseForeignObjects(db);
  db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
  try {
    db.transaction(() => {
      // Older still: made before messages could be set aside, or before runs kept facts.
      if (!columnsOf(db, "messages").includes("superseded_by")) db.exec("ALTER TABLE messages ADD COLUMN superseded_by TEXT");
      const tables = Object.keys(COPIES).filter((table) => columnsOf(db, table).length > 0);
      for (const index of TETHER_INDEXES) db.exec(`DROP INDEX IF EXISTS ${index}`);
      for (const table of tables) db.exec(`ALTER TABLE ${table} RENAME TO text_keyed_${table}`);
      db.exec(schema);
      for (const table of tables) {
        const { parent, copy } = COPIES[table]!;
        db.exec(copy);
        const count = (name: string) => (db.prepare(`SELECT COUNT(*) AS rows FROM ${name}`).get() as { rows: number }).rows;
        const left = count(`text_keyed_${table}`) - count(table);
        // In a file Tether wrote every row has its thread or run; one without would be lost, so nothing changes.
        if (left > 0 && parent) {
          throw new TetherError(
            "store_unavailable",
            `Could not bring the database ${db.name} up to date: ${left} row(s) of ${table} belong to no stored ${parent.table.slice(0, -1)} ` +
              `(SELECT rowid, * FROM ${table} WHERE ${parent.id} NOT IN (SELECT ${parent.id} FROM ${parent.table}) finds them). ` +
              "The file is left as it was: delete those rows or store what they belong to, then start Tether again.",
          );
        }
      }
      for (const table of tables) db.exec(`DROP TABLE text_keyed_${table}`);
      // Immediate: the write lock taken first, so the wait covers it (a read turned write would fail at once).
    }).immediate();
  } catch (error) {
    if ((error as { code?: unknown }).code !== "SQLITE_BUSY") throw error;
    throw new TetherError(
      "store_unavailable",
      `Could not bring the database ${db.name} up to date: another connection kept it locked for ${LOCK_WAIT_MS / 1000} s. ` +
        "The file is left as it was: close the other program using it, then start Tether again.",
      { cause: error },
    );
  } finally {
    db.pragma("busy_timeout = 0");
  }
}

/**
 * Views, triggers and indexes on Tether's tables, or tables referencing them,
 * that Tether did not make: the rebuild would leave them pointing at dropped
 * tables or drop them with those, so it asks for them to be set aside first.
 */
function refuseForeignObjects(db: Database.Database): void {
  const tables = Object.keys(COPIES);
  const mentions = new RegExp(`\\b(${tables.join("|")})\\b`, "i");
  const references = new RegExp(`\\bREFERENCES\\s+["'\`\\[]?(${tables.join("|")})\\b`, "i");
  const foreign = (db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL").all() as ForeignObject[]).filter(
    ({ type, name, tbl_name: table, sql }) => {
      if (type === "table") return !tables.includes(name) && references.test(sql);
      if (type === "index") return tables.includes(table) && !TETHER_INDEXES.includes(name);
      return mentions.test(sql) || tables.includes(table);
    },
  );
  if (foreign.length === 0) return;
  throw new TetherError(
    "store_unavailable",
    `Could not bring the database ${db.name} up to date: this version rebuilds Tether's tables, and ${foreign
      .map(({ type, name }) => `${type} ${name}`)
      .join(", ")} ${foreign.length === 1 ? "is" : "are"} built on them. The file is left as it was: ` +
      "drop those (keep their definitions from sqlite_master), start Tether once, then create them again.",
  );
}

interface ForeignObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string;
}
