import type Database from "better-sqlite3";
import type { InterruptRow, RunLinkRow, RunRow, ThreadRow } from "./rows.ts";

// Tables key their rows by a thread's or run's integer key; statements take the client's id and look the key up.
const THREAD_KEY = "(SELECT thread_key FROM threads WHERE thread_id = ?)";
const RUN_KEY = "(SELECT run_key FROM runs WHERE run_id = ?)";
// A run as listed and looked up: never its request (`input`), which only readRunInput reads.
const RUN_COLUMNS =
  "run_id, thread_id, agent_id, user_id, parent_run_id, trigger, status, outcome, error, usage, request_summary, log, state, created_at, finished_at";

/** Every statement the SQLite store runs, prepared once per connection. @internal */
export function prepareStatements(db: Database.Database) {
  return {
    getThread: db.prepare<[string], ThreadRow>("SELECT thread_id, agent_id, owner_id, created_at, updated_at, state FROM threads WHERE thread_id = ?"),
    insertThread: db.prepare("INSERT INTO threads (thread_id, agent_id, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"),
    touchThread: db.prepare("UPDATE threads SET updated_at = ? WHERE thread_id = ?"),
    setThreadState: db.prepare<[string, string]>("UPDATE threads SET state = ? WHERE thread_id = ?"),
    setRunState: db.prepare<[string, string]>("UPDATE runs SET state = ? WHERE run_id = ?"),
    getMessages: db.prepare<[string, string], { body: string }>(
      `SELECT body FROM messages WHERE thread_key = ${THREAD_KEY} AND run_id != ? AND superseded_by IS NULL ORDER BY position`,
    ),
    /** Takes the run first, then the thread. */
    getMessagesBefore: db.prepare<[string, string], { body: string }>(
      // As the run found the thread: what earlier runs added, less what they (or it) set aside.
      `WITH target AS (SELECT ordinal FROM runs WHERE run_id = ?)
       SELECT m.body FROM messages m JOIN runs r ON r.run_id = m.run_id LEFT JOIN runs s ON s.run_id = m.superseded_by
       WHERE m.thread_key = ${THREAD_KEY} AND r.ordinal < (SELECT ordinal FROM target)
         AND (s.ordinal IS NULL OR s.ordinal > (SELECT ordinal FROM target)) ORDER BY m.position`,
    ),
    getMessageRun: db.prepare<[string, string], { run_id: string }>(`SELECT run_id FROM messages WHERE thread_key = ${THREAD_KEY} AND message_id = ?`),
    nextPosition: db.prepare<[string], { next: number }>(`SELECT COALESCE(MAX(position), -1) + 1 AS next FROM messages WHERE thread_key = ${THREAD_KEY}`),
    insertMessage: db.prepare(`INSERT INTO messages (thread_key, position, message_id, run_id, body) VALUES (${THREAD_KEY}, ?, ?, ?, ?)`),
    supersedeAfter: db.prepare<[string, string, string, string]>(
      `UPDATE messages SET superseded_by = ? WHERE thread_key = ${THREAD_KEY} AND superseded_by IS NULL
       AND position > (SELECT position FROM messages WHERE thread_key = ${THREAD_KEY} AND message_id = ?)`,
    ),
    getPending: db.prepare<[string], { tool_call_id: string; tool_name: string; run_id: string; arguments: string }>(
      `SELECT tool_call_id, tool_name, run_id, arguments FROM pending_tool_calls WHERE thread_key = ${THREAD_KEY} ORDER BY rowid`,
    ),
    insertPending: db.prepare(
      `INSERT OR REPLACE INTO pending_tool_calls (thread_key, tool_call_id, tool_name, run_id, arguments) VALUES (${THREAD_KEY}, ?, ?, ?, ?)`,
    ),
    deletePending: db.prepare(`DELETE FROM pending_tool_calls WHERE thread_key = ${THREAD_KEY} AND tool_call_id = ?`),
    getRun: db.prepare<[string], RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ?`),
    // `+status`: through the thread's own runs; by `runs_running` it would read every running run of the server.
    getActiveRun: db.prepare<[string], RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE thread_key = ${THREAD_KEY} AND +status = 'running' LIMIT 1`),
    listRuns: db.prepare<[string], RunRow>(`SELECT ${RUN_COLUMNS} FROM runs WHERE thread_key = ${THREAD_KEY} ORDER BY ordinal`),
    listRunLinks: db.prepare<[string], RunLinkRow>(
      `SELECT run_id, parent_run_id, trigger, created_at FROM runs WHERE thread_key = ${THREAD_KEY} ORDER BY ordinal`,
    ),
    /** Takes the thread's id last: the run goes into the thread stored before it, and starts from the thread's state. */
    insertRun: db.prepare(
      `INSERT INTO runs (run_id, thread_key, thread_id, agent_id, user_id, parent_run_id, trigger, status, input, log, created_at, ordinal, state)
       SELECT ?, thread_key, thread_id, ?, ?, ?, ?, 'running', ?, ?, ?,
         COALESCE((SELECT MAX(ordinal) FROM runs WHERE thread_key = threads.thread_key), 0) + 1, state
       FROM threads WHERE thread_id = ?`,
    ),
    finishRun: db.prepare("UPDATE runs SET status = ?, outcome = ?, error = ?, usage = ?, finished_at = ? WHERE run_id = ? AND status = 'running'"),
    runStatus: db.prepare<[string], { status: string }>("SELECT status FROM runs WHERE run_id = ?"),
    getLog: db.prepare<[string], { log: string }>("SELECT log FROM runs WHERE run_id = ?"),
    setLog: db.prepare("UPDATE runs SET log = ? WHERE run_id = ?"),
    insertPage: db.prepare(`INSERT INTO event_pages (run_key, first_seq, last_seq, body) VALUES (${RUN_KEY}, ?, ?, ?)`),
    readPages: db.prepare<[string, number], { first_seq: number; body: Buffer }>(
      `SELECT first_seq, body FROM event_pages WHERE run_key = ${RUN_KEY} AND last_seq > ? ORDER BY first_seq`,
    ),
    getInterrupt: db.prepare<[string], InterruptRow>("SELECT * FROM interrupts WHERE interrupt_id = ?"),
    getPendingInterrupts: db.prepare<[string], InterruptRow>("SELECT * FROM interrupts WHERE thread_id = ? AND status = 'pending' ORDER BY rowid"),
    insertInterrupt: db.prepare("INSERT INTO interrupts (interrupt_id, thread_id, run_id, body, status) VALUES (?, ?, ?, ?, 'pending')"),
    resolveInterrupt: db.prepare("UPDATE interrupts SET status = ?, answer = ?, resolved_by_run_id = ? WHERE interrupt_id = ? AND status = 'pending'"),
    listReports: db.prepare<[string], { received_at: string; body: string }>("SELECT received_at, body FROM reports WHERE run_id = ? ORDER BY rowid"),
    insertFact: db.prepare(`INSERT INTO run_facts (run_key, body) VALUES (${RUN_KEY}, ?)`),
    listFacts: db.prepare<[string], { body: string }>(`SELECT body FROM run_facts WHERE run_key = ${RUN_KEY} ORDER BY rowid`),
    runningRuns: db.prepare<[], { run_id: string }>("SELECT run_id FROM runs WHERE status = 'running'"),
    lastSeq: db.prepare<[string], { last: number }>(`SELECT COALESCE(MAX(last_seq), 0) AS last FROM event_pages WHERE run_key = ${RUN_KEY}`),
    lastPage: db.prepare<[string], { first_seq: number; body: Buffer }>(
      `SELECT first_seq, body FROM event_pages WHERE run_key = ${RUN_KEY} ORDER BY first_seq DESC LIMIT 1`,
    ),
    everyMessage: db.prepare<[string], { body: string }>(`SELECT body FROM messages WHERE thread_key = ${THREAD_KEY} ORDER BY position`),
    allMessages: db.prepare<[string], { body: string }>(
      `SELECT body FROM messages WHERE thread_key = ${THREAD_KEY} AND superseded_by IS NULL ORDER BY position`,
    ),
  };
}
