import { quoteIdentifier } from "./schema.ts";

/**
 * Every statement the PostgreSQL store runs, with its schema written in.
 * Writes of several rows are one statement each (`unnest` over arrays), so a
 * batch of events, messages or facts costs one round trip, not one per row.
 */
export function pgStatements(schema: string) {
  const s = quoteIdentifier(schema);
  // A run as listed and looked up: never its request (`input`), which only readRunInput reads.
  const runColumns = `run_id, thread_id, agent_id, user_id, parent_run_id, trigger, status, outcome, error, usage, request_summary, log, state, created_at, finished_at`;
  return {
    getThread: `SELECT thread_id, agent_id, owner_id, created_at, updated_at, state FROM ${s}.threads WHERE thread_id = $1`,
    /**
     * Creates the thread, or touches it and takes its row lock: every write
     * that changes what a thread's runs are, or appends to its messages, holds
     * this lock first, so they happen one at a time and always take their
     * locks in the same order (thread, then run). Returns its owner, and
     * whether it is new. A state ($5) replaces the thread's; NULL keeps it.
     */
    upsertThread: `INSERT INTO ${s}.threads AS t (thread_id, agent_id, owner_id, created_at, updated_at, state) VALUES ($1, $2, $3, $4, $4, $5::json)
      ON CONFLICT (thread_id) DO UPDATE SET updated_at = EXCLUDED.updated_at, state = COALESCE(EXCLUDED.state, t.state)
      RETURNING t.owner_id, (t.xmax = 0) AS created`,
    touchThread: `UPDATE ${s}.threads SET updated_at = $2 WHERE thread_id = $1`,
    /** A committed change of shared state ($3): the thread's current value and the run's latest, in one round trip. */
    setState: `WITH thread AS (UPDATE ${s}.threads SET state = $3::json WHERE thread_id = $1)
      UPDATE ${s}.runs SET state = $3::json WHERE run_id = $2`,
    /** A run's thread, locked as upsertThread locks it. */
    lockRunThread: `SELECT r.thread_id, r.status, r.owner FROM ${s}.runs r JOIN ${s}.threads t ON t.thread_id = r.thread_id WHERE r.run_id = $1 FOR UPDATE OF t`,
    beginChecks: `SELECT EXISTS (SELECT 1 FROM ${s}.runs WHERE run_id = $1) AS taken,
      EXISTS (SELECT 1 FROM ${s}.runs WHERE thread_id = $2 AND status = 'running') AS busy`,
    // The run starts from its thread's state, written by upsertThread before it.
    insertRun: `INSERT INTO ${s}.runs (run_id, thread_id, agent_id, user_id, parent_run_id, trigger, status, input, log, owner, created_at, ordinal, state)
      SELECT $1, $2, $3, $4, $5, $6::json, 'running', $7::json, $8::json, $9, $10, COALESCE(MAX(ordinal), 0) + 1,
        (SELECT state FROM ${s}.threads WHERE thread_id = $2) FROM ${s}.runs WHERE thread_id = $2`,
    // Never before the run began: the instance ending it (another, taking it for lost) may have a clock behind the one that began it.
    finishRun: `UPDATE ${s}.runs SET status = $2, outcome = $3::json, error = $4::json, usage = $5::json, finished_at = GREATEST($6::timestamptz, created_at)
      WHERE run_id = $1 AND status = 'running'`,
    getRun: `SELECT ${runColumns} FROM ${s}.runs WHERE run_id = $1`,
    getActiveRun: `SELECT ${runColumns} FROM ${s}.runs WHERE thread_id = $1 AND status = 'running'`,
    listRuns: `SELECT ${runColumns} FROM ${s}.runs WHERE thread_id = $1 ORDER BY ordinal`,
    /** The links between a thread's runs, without their requests (a long stateless thread's requests are large). */
    listRunLinks: `SELECT run_id, parent_run_id, trigger, created_at FROM ${s}.runs WHERE thread_id = $1 ORDER BY ordinal`,
    runStatus: `SELECT status FROM ${s}.runs WHERE run_id = $1`,
    lockLog: `SELECT log FROM ${s}.runs WHERE run_id = $1 FOR UPDATE`,
    setLog: `UPDATE ${s}.runs SET log = $2::json WHERE run_id = $1`,
    /** Running runs of other instances, by owner; the instance itself is alive, so its own are never among them. */
    runningOwners: `SELECT DISTINCT COALESCE(owner, '') AS owner FROM ${s}.runs WHERE status = 'running' AND owner IS DISTINCT FROM $1`,
    runningRunsOf: `SELECT run_id FROM ${s}.runs WHERE status = 'running' AND COALESCE(owner, '') = $1 ORDER BY created_at`,

    getMessages: `SELECT body FROM ${s}.messages WHERE thread_id = $1 AND run_id <> $2 AND superseded_by IS NULL ORDER BY position`,
    // As the run found the thread: what earlier runs added, less what they (or it) set aside.
    getMessagesBefore: `WITH target AS (SELECT ordinal FROM ${s}.runs WHERE run_id = $2)
      SELECT m.body FROM ${s}.messages m JOIN ${s}.runs r ON r.run_id = m.run_id LEFT JOIN ${s}.runs sr ON sr.run_id = m.superseded_by
      WHERE m.thread_id = $1 AND r.ordinal < (SELECT ordinal FROM target)
        AND (sr.ordinal IS NULL OR sr.ordinal > (SELECT ordinal FROM target)) ORDER BY m.position`,
    everyMessage: `SELECT body FROM ${s}.messages WHERE thread_id = $1 ORDER BY position`,
    allMessages: `SELECT body FROM ${s}.messages WHERE thread_id = $1 AND superseded_by IS NULL ORDER BY position`,
    supersedeAfter: `UPDATE ${s}.messages SET superseded_by = $3 WHERE thread_id = $1 AND superseded_by IS NULL
      AND position > (SELECT position FROM ${s}.messages WHERE thread_id = $1 AND message_id = $2)`,
    getMessageRun: `SELECT run_id FROM ${s}.messages WHERE thread_id = $1 AND message_id = $2`,
    insertMessages: `INSERT INTO ${s}.messages (thread_id, position, message_id, run_id, body)
      SELECT $1, next.position + m.ord - 1, m.id, $2, m.body::json
      FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS m(id, body, ord),
        (SELECT COALESCE(MAX(position), -1) + 1 AS position FROM ${s}.messages WHERE thread_id = $1) AS next
      ORDER BY m.ord`,

    getPending: `SELECT tool_call_id, tool_name, run_id, arguments FROM ${s}.pending_tool_calls WHERE thread_id = $1 ORDER BY id`,
    upsertPending: `INSERT INTO ${s}.pending_tool_calls (thread_id, tool_call_id, tool_name, run_id, arguments)
      SELECT $1, c.id, c.name, c.run_id, c.arguments FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS c(id, name, run_id, arguments, ord)
      ORDER BY c.ord
      ON CONFLICT (thread_id, tool_call_id) DO UPDATE SET tool_name = EXCLUDED.tool_name, run_id = EXCLUDED.run_id, arguments = EXCLUDED.arguments`,
    deletePending: `DELETE FROM ${s}.pending_tool_calls WHERE thread_id = $1 AND tool_call_id = ANY($2::text[]) RETURNING tool_call_id`,

    insertPages: `INSERT INTO ${s}.event_pages (run_id, first_seq, last_seq, body)
      SELECT $1, p.first_seq, p.last_seq, p.body FROM unnest($2::integer[], $3::integer[], $4::bytea[]) AS p(first_seq, last_seq, body)
      ON CONFLICT (run_id, first_seq) DO NOTHING`,
    /**
     * insertPages for a run still running, checked in the same statement (the hot path gets no second round
     * trip): a run ended elsewhere takes no more events. Checked without a row lock, so a page racing another
     * instance's end of the run may still land; that end leaves a gap of UNSTORED_EVENT_LIMIT ids for it.
     */
    appendPages: `INSERT INTO ${s}.event_pages (run_id, first_seq, last_seq, body)
      SELECT $1, p.first_seq, p.last_seq, p.body FROM unnest($2::integer[], $3::integer[], $4::bytea[]) AS p(first_seq, last_seq, body)
      WHERE EXISTS (SELECT 1 FROM ${s}.runs WHERE run_id = $1 AND status = 'running')
      ON CONFLICT (run_id, first_seq) DO NOTHING`,
    readPages: `SELECT first_seq, body FROM ${s}.event_pages WHERE run_id = $1 AND last_seq > $2 ORDER BY first_seq`,
    lastPage: `SELECT first_seq, body FROM ${s}.event_pages WHERE run_id = $1 ORDER BY first_seq DESC LIMIT 1`,
    lastSeq: `SELECT COALESCE(MAX(last_seq), 0) AS last FROM ${s}.event_pages WHERE run_id = $1`,

    getInterrupt: `SELECT body, status, answer, resolved_by_run_id FROM ${s}.interrupts WHERE interrupt_id = $1`,
    getPendingInterrupts: `SELECT body, status, answer, resolved_by_run_id FROM ${s}.interrupts WHERE thread_id = $1 AND status = 'pending' ORDER BY id`,
    insertInterrupt: `INSERT INTO ${s}.interrupts (interrupt_id, thread_id, run_id, body, status) VALUES ($1, $2, $3, $4::json, 'pending')
      ON CONFLICT (interrupt_id) DO NOTHING`,
    resolveInterrupt: `UPDATE ${s}.interrupts SET status = $2, answer = $3::json, resolved_by_run_id = $4 WHERE interrupt_id = $1 AND status = 'pending'`,

    listReports: `SELECT received_at, body FROM ${s}.reports WHERE run_id = $1 ORDER BY id`,
    insertFacts: `INSERT INTO ${s}.run_facts (run_id, body) SELECT $1, f.body::json FROM unnest($2::text[]) WITH ORDINALITY AS f(body, ord) ORDER BY f.ord`,
    listFacts: `SELECT body FROM ${s}.run_facts WHERE run_id = $1 ORDER BY id`,
  };
}

export type PgStatements = ReturnType<typeof pgStatements>;
