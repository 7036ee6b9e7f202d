import type Database from "better-sqlite3";
import { type RunRequestSummary, joinRunInput, type StoredRunInput } from "../../store/shared/index.ts";

/**
 * Where the SQLite store keeps run requests' histories, once per thread by
 * content (see run-input-history.ts), and the runs' columns that point there.
 * A file made before has neither: its runs keep their requests inline
 * (`input_history` NULL) and read back as they were.
 */
const HISTORY_SCHEMA = `
CREATE TABLE IF NOT EXISTS history_contents (
  thread_key INTEGER NOT NULL,
  content_hash TEXT NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (thread_key, content_hash)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS history_links (
  thread_key INTEGER NOT NULL,
  node_hash TEXT NOT NULL,
  parent_hash TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  PRIMARY KEY (thread_key, node_hash)
) WITHOUT ROWID;
`;

/** Adds the history tables and the runs' columns for them where they are missing. */
export function applyRunInputSchema(db: Database.Database): void {
  db.exec(HISTORY_SCHEMA);
  const columns = new Set((db.pragma("table_info(runs)") as Array<{ name: string }>).map((column) => column.name));
  // The last link of the run's history; NULL: the request is inline whole (every run stored before).
  if (!columns.has("input_history")) db.exec("ALTER TABLE runs ADD COLUMN input_history TEXT");
  if (!columns.has("request_summary")) db.exec("ALTER TABLE runs ADD COLUMN request_summary TEXT");
}

const THREAD_KEY = "(SELECT thread_key FROM threads WHERE thread_id = ?)";

/** Stores and reads run requests; `store` runs inside the caller's transaction, after the run's row is written. */
export function sqliteRunInputs(db: Database.Database) {
  const statements = {
    setHistory: db.prepare<[string | null, string | null, string]>("UPDATE runs SET input_history = ?, request_summary = ? WHERE run_id = ?"),
    hasLink: db.prepare<[string, string], { found: number }>(`SELECT 1 AS found FROM history_links WHERE thread_key = ${THREAD_KEY} AND node_hash = ?`),
    insertLink: db.prepare(`INSERT OR IGNORE INTO history_links (thread_key, node_hash, parent_hash, content_hash) VALUES (${THREAD_KEY}, ?, ?, ?)`),
    insertContent: db.prepare(`INSERT OR IGNORE INTO history_contents (thread_key, content_hash, body) VALUES (${THREAD_KEY}, ?, ?)`),
    readInput: db.prepare<[string], { input: string; input_history: string | null; thread_key: number }>(
      "SELECT input, input_history, thread_key FROM runs WHERE run_id = ?",
    ),
    /** A history from its last link back to its first, each link's message; in order by `depth` descending. */
    readHistory: db.prepare<[{ thread: number; node: string }], { body: string }>(
      `WITH RECURSIVE chain(node_hash, parent_hash, content_hash, depth) AS (
         SELECT node_hash, parent_hash, content_hash, 0 FROM history_links WHERE thread_key = @thread AND node_hash = @node
         UNION ALL
         SELECT l.node_hash, l.parent_hash, l.content_hash, c.depth + 1 FROM chain c
         JOIN history_links l ON l.thread_key = @thread AND l.node_hash = c.parent_hash
       )
       SELECT h.body FROM chain c JOIN history_contents h ON h.thread_key = @thread AND h.content_hash = c.content_hash ORDER BY c.depth DESC`,
    ),
  };
  return {
    store(threadId: string, runId: string, input: StoredRunInput, summary: RunRequestSummary | undefined) {
      if (input.tail || summary) statements.setHistory.run(input.tail ?? null, summary ? JSON.stringify(summary) : null, runId);
      if (!input.tail) return;
      // From the last link back: a link already stored has its whole history before it stored too.
      for (let index = input.links.length - 1; index >= 0; index--) {
        const link = input.links[index]!;
        if (statements.hasLink.get(threadId, link.node)) break;
        statements.insertContent.run(threadId, link.content, link.body);
        statements.insertLink.run(threadId, link.node, link.parent, link.content);
      }
    },
    read(runId: string): unknown {
      const row = statements.readInput.get(runId);
      if (!row) return undefined;
      if (row.input_history === null) return JSON.parse(row.input);
      const messages = statements.readHistory.all({ thread: row.thread_key, node: row.input_history }).map((message) => JSON.parse(message.body) as unknown);
      return joinRunInput(JSON.parse(row.input), messages);
    },
  };
}
