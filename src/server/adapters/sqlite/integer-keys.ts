import type Database from "better-sqlite3";
import { TetherError, isTetherError } from "../../../protocol/index.ts";

/**
 * How each table an earlier Tether keyed by the clients' text ids is copied onto
 * integer keys, parents first, in the order its rows were written; and for the
 * others, the parent whose id finds their key.
 */
const COPIES: Record<string, { columns: string[]; parent?: { table: string; id: string }; copy: string }> = {
  threads: {
    columns: ["thread_id", "agent_id", "owner_id", "created_at", "updated_at"],
    copy: `INSERT INTO threads (thread_id, agent_id, owner_id, created_at, updated_at)
      SELECT thread_id, agent_id, owner_id, created_at, updated_at FROM text_keyed_threads ORDER BY rowid`,
  },
  runs: {
    columns: [
      "run_id",
      "thread_id",
      "agent_id",
      "user_id",
      "parent_run_id",
      "trigger",
      "status",
      "outcome",
      "error",
      "usage",
      "input",
      "log",
      "created_at",
      "finished_at",
      "ordinal",
    ],
    parent: { table: "threads", id: "thread_id" },
    copy: `INSERT INTO runs (run_id, thread_key, thread_id, agent_id, user_id, parent_run_id, trigger, status, outcome, error, usage, input, log,
                        created_at, finished_at, ordinal)
      SELECT r.run_id, t.thread_key, r.thread_id, r.agent_id, r.user_id, r.parent_run_id, r.trigger, r.status, r.outcome, r.error, r.usage,
             r.input, r.log, r.created_at, r.finished_at, r.ordinal
      FROM text_keyed_runs r JOIN threads t ON t.thread_id = r.thread_id ORDER BY r.rowid`,
  },
  messages: {
    columns: ["thread_id", "position", "message_id", "run_id", "body", "superseded_by"],
    parent: { table: "threads", id: "thread_id" },
    copy: `INSERT INTO messages (thread_key, position, message_id, run_id, body, superseded_by)
      SELECT t.thread_key, m.position, m.message_id, m.run_id, m.body, m.superseded_by
      FROM text_keyed_messages m JOIN threads t ON t.thread_id = m.thread_id ORDER BY m.rowid`,
  },
  event_pages: {
    columns: ["run_id", "first_seq", "last_seq", "body"],
    parent: { table: "runs", id: "run_id" },
    copy: `INSERT INTO event_pages (run_key, first_seq, last_seq, body)
      SELECT r.run_key, p.first_seq, p.last_seq, p.body FROM text_keyed_event_pages p JOIN runs r ON r.run_id = p.run_id ORDER BY p.rowid`,
  },
  pending_tool_calls: {
    columns: ["thread_id", "tool_call_id", "tool_name", "run_id", "arguments"],
    parent: { table: "threads", id: "thread_id" },
    copy: `INSERT INTO pending_tool_calls (thread_key, tool_call_id, tool_name, run_id, arguments)
      SELECT t.thread_key, c.tool_call_id, c.tool_name, c.run_id, c.arguments
      FROM text_keyed_pending_tool_calls c JOIN threads t ON t.thread_id = c.thread_id ORDER BY c.rowid`,
  },
  run_facts: {
    columns: ["run_id", "body"],
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
 * cannot be copied, a column or an object of someone else's added to or built
 * on those tables (which the rebuild would lose, break or drop), or any other
 * failure leaves the file as it was.
 */
export function rekeyOnIntegers(db: Database.Database, schema: string): void {
  const tetherObjects = new Set([...schema.matchAll(/CREATE (?:TABLE|INDEX) IF NOT EXISTS (\w+)/g)].map((match) => match[1]!));
  db.pragma(`busy_timeout = ${LOCK_WAIT_MS}`);
  try {
    db.transaction(() => {
      // Older still: made before messages could be set aside, or before runs kept facts.
      if (!columnsOf(db, "messages").includes("superseded_by")) db.exec("ALTER TABLE messages ADD COLUMN superseded_by TEXT");
      const tables = Object.keys(COPIES).filter((table) => columnsOf(db, table).length > 0);
      refuseAddedColumns(db, tables);
      const others = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL").all() as SchemaObject[];
      for (const index of TETHER_INDEXES) db.exec(`DROP INDEX IF EXISTS ${index}`);
      for (const table of tables) db.exec(`ALTER TABLE ${table} RENAME TO text_keyed_${table}`);
      refuseObjectsBuiltOn(
        db,
        tables,
        others.filter((object) => !tetherObjects.has(object.name) && object.name !== "sqlite_sequence"),
      );
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
    if (isTetherError(error)) throw error;
    const busy = (error as { code?: unknown }).code === "SQLITE_BUSY";
    throw new TetherError(
      "store_unavailable",
      `Could not bring the database ${db.name} up to date: ` +
        (busy
          ? `another connection kept it locked for ${LOCK_WAIT_MS / 1000} s. The file is left as it was: close the other program using it, then start Tether again.`
          : `${(error as Error).message}. The file is left as it was.`),
      { cause: error },
    );
  } finally {
    db.pragma("busy_timeout = 0");
  }
}

/** Columns someone added to Tether's tables: the rebuilt tables would not have them, so their data would be lost. */
function refuseAddedColumns(db: Database.Database, tables: string[]): void {
  const added = tables.flatMap((table) =>
    columnsOf(db, table)
      .filter((column) => !COPIES[table]!.columns.includes(column))
      .map((column) => `${table}.${column}`),
  );
  if (added.length === 0) return;
  throw new TetherError(
    "store_unavailable",
    `Could not bring the database ${db.name} up to date: this version rebuilds Tether's tables, and ${added.join(", ")} ` +
      `${added.length === 1 ? "is not a column" : "are not columns"} Tether made. The file is left as it was: copy that data out and ` +
      "drop the columns, start Tether once, then keep the data in a table of your own.",
  );
}

/**
 * Views, triggers, indexes and tables of someone else's built on the tables
 * being rebuilt: renaming a table rewrites every reference to it, so an object
 * whose definition changed with the renames would point at dropped tables, or be
 * dropped with them. A full-text table reading its content from one of them
 * names it in an option the renames leave alone.
 */
function refuseObjectsBuiltOn(db: Database.Database, tables: string[], before: SchemaObject[]): void {
  const after = new Map((db.prepare("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL").all() as SchemaObject[]).map((o) => [o.name, o.sql]));
  const readsContent = new RegExp(`\\bcontent\\s*=\\s*["'\`\\[]?(${tables.join("|")})\\b`, "i");
  const builtOn = before.filter(({ name, sql }) => after.get(name) !== sql || (/^CREATE VIRTUAL TABLE/i.test(sql) && readsContent.test(sql)));
  if (builtOn.length === 0) return;
  throw new TetherError(
    "store_unavailable",
    `Could not bring the database ${db.name} up to date: this version rebuilds Tether's tables, and ${builtOn
      .map(({ type, name }) => `${type} ${name}`)
      .join(", ")} ${builtOn.length === 1 ? "is" : "are"} built on them. The file is left as it was: set those aside ` +
      "(keep their definitions from sqlite_master, and copy a table's rows out first), start Tether once, then create them again.",
  );
}

interface SchemaObject {
  type: string;
  name: string;
  sql: string;
}
