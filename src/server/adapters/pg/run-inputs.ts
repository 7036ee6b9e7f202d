import type { PgQueries } from "./runner.ts";
import { quoteIdentifier } from "./schema.ts";
import { type RunRequestSummary, joinRunInput, type StoredRunInput } from "../../store/shared/index.ts";

/**
 * How the PostgreSQL store stores and reads run requests, each history once
 * per thread by content (see run-input-history.ts; tables of migration 3).
 * Runs of a schema made before keep their requests inline (`input_history`
 * NULL) and read back as they were.
 */
export function pgRunInputs(schema: string) {
  const s = quoteIdentifier(schema);
  const sql = {
    setHistory: `UPDATE ${s}.runs SET input_history = $2, request_summary = $3::json WHERE run_id = $1`,
    knownLinks: `SELECT node_hash FROM ${s}.history_links WHERE thread_id = $1 AND node_hash = ANY($2::text[])`,
    insertContents: `INSERT INTO ${s}.history_contents (thread_id, content_hash, body)
      SELECT $1, c.hash, c.body::json FROM unnest($2::text[], $3::text[]) AS c(hash, body) ON CONFLICT DO NOTHING`,
    insertLinks: `INSERT INTO ${s}.history_links (thread_id, node_hash, parent_hash, content_hash)
      SELECT $1, l.node, l.parent, l.content FROM unnest($2::text[], $3::text[], $4::text[]) AS l(node, parent, content) ON CONFLICT DO NOTHING`,
    readInput: `SELECT input, input_history, thread_id FROM ${s}.runs WHERE run_id = $1`,
    /** A history from its last link back to its first, each link's message, returned first to last. */
    readHistory: `WITH RECURSIVE chain(node_hash, parent_hash, content_hash, depth) AS (
        SELECT node_hash, parent_hash, content_hash, 0 FROM ${s}.history_links WHERE thread_id = $1 AND node_hash = $2
        UNION ALL
        SELECT l.node_hash, l.parent_hash, l.content_hash, c.depth + 1 FROM chain c
        JOIN ${s}.history_links l ON l.thread_id = $1 AND l.node_hash = c.parent_hash
      )
      SELECT h.body FROM chain c JOIN ${s}.history_contents h ON h.thread_id = $1 AND h.content_hash = c.content_hash ORDER BY c.depth DESC`,
  };
  return {
    /** Inside the transaction that inserted the run's row (with `input.inline` as its input). */
    async store(tx: PgQueries, threadId: string, runId: string, input: StoredRunInput, summary: RunRequestSummary | undefined) {
      if (input.tail || summary) await tx.query(sql.setHistory, [runId, input.tail ?? null, summary ? JSON.stringify(summary) : null]);
      if (!input.tail) return;
      // Only what the thread does not hold yet goes over the wire: a resent history is known but for its last messages.
      const known = new Set(
        (await tx.query<{ node_hash: string }>(sql.knownLinks, [threadId, input.links.map((link) => link.node)])).rows.map((row) => row.node_hash),
      );
      const added = input.links.filter((link) => !known.has(link.node));
      if (added.length === 0) return;
      const contents = [...new Map(added.map((link) => [link.content, link.body])).entries()];
      await tx.query(sql.insertContents, [threadId, contents.map(([hash]) => hash), contents.map(([, body]) => body)]);
      await tx.query(sql.insertLinks, [threadId, added.map((link) => link.node), added.map((link) => link.parent), added.map((link) => link.content)]);
    },
    async read(queries: PgQueries, runId: string): Promise<unknown> {
      const [row] = (await queries.query<{ input: unknown; input_history: string | null; thread_id: string }>(sql.readInput, [runId])).rows;
      if (!row) return undefined;
      if (row.input_history === null) return row.input;
      const messages = (await queries.query<{ body: unknown }>(sql.readHistory, [row.thread_id, row.input_history])).rows.map((message) => message.body);
      return joinRunInput(row.input, messages);
    },
  };
}
