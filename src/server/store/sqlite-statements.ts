import type Database from "better-sqlite3";
import type { InterruptRow, RunLinkRow, RunRow } from "./sqlite-rows.ts";

/** Every statement the SQLite store runs, prepared once per connection. @internal */
export function prepareStatements(db: Database.Database) {
  return {
    getThread: db.prepare<[string], { thread_id: string; agent_id: string; owner_id: string; created_at: string; updated_at: string }>(
      "SELECT * FROM threads WHERE thread_id = ?",
    ),
    insertThread: db.prepare("INSERT INTO threads (thread_id, agent_id, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"),
    touchThread: db.prepare("UPDATE threads SET updated_at = ? WHERE thread_id = ?"),
    getMessages: db.prepare<[string, string], { body: string }>(
      "SELECT body FROM messages WHERE thread_id = ? AND run_id != ? AND superseded_by IS NULL ORDER BY position",
    ),
    /** Takes the run first, then the thread. */
    getMessagesBefore: db.prepare<[string, string], { body: string }>(
      // As the run found the thread: what earlier runs added, less what they (or it) set aside.
      `WITH target AS (SELECT ordinal FROM runs WHERE run_id = ?)
       SELECT m.body FROM messages m JOIN runs r ON r.run_id = m.run_id LEFT JOIN runs s ON s.run_id = m.superseded_by
       WHERE m.thread_id = ? AND r.ordinal < (SELECT ordinal FROM target)
         AND (s.ordinal IS NULL OR s.ordinal > (SELECT ordinal FROM target)) ORDER BY m.position`,
    ),
    getMessageRun: db.prepare<[string, string], { run_id: string }>("SELECT run_id FROM messages WHERE thread_id = ? AND message_id = ?"),
    nextPosition: db.prepare<[string], { next: number }>("SELECT COALESCE(MAX(position), -1) + 1 AS next FROM messages WHERE thread_id = ?"),
    insertMessage: db.prepare("INSERT INTO messages (thread_id, position, message_id, run_id, body) VALUES (?, ?, ?, ?, ?)"),
    supersedeAfter: db.prepare<[string, string, string, string]>(
      `UPDATE messages SET superseded_by = ? WHERE thread_id = ? AND superseded_by IS NULL
       AND position > (SELECT position FROM messages WHERE thread_id = ? AND message_id = ?)`,
    ),
    getPending: db.prepare<[string], { tool_call_id: string; tool_name: string; run_id: string; arguments: string }>(
      "SELECT tool_call_id, tool_name, run_id, arguments FROM pending_tool_calls WHERE thread_id = ? ORDER BY rowid",
    ),
    insertPending: db.prepare("INSERT OR REPLACE INTO pending_tool_calls (thread_id, tool_call_id, tool_name, run_id, arguments) VALUES (?, ?, ?, ?, ?)"),
    deletePending: db.prepare("DELETE FROM pending_tool_calls WHERE thread_id = ? AND tool_call_id = ?"),
    getRun: db.prepare<[string], RunRow>("SELECT * FROM runs WHERE run_id = ?"),
    // `+status`: through the thread's own runs; by `runs_running` it would read every running run of the server.
    getActiveRun: db.prepare<[string], RunRow>("SELECT * FROM runs WHERE thread_id = ? AND +status = 'running' LIMIT 1"),
    listRuns: db.prepare<[string], RunRow>("SELECT * FROM runs WHERE thread_id = ? ORDER BY ordinal"),
    listRunLinks: db.prepare<[string], RunLinkRow>("SELECT run_id, parent_run_id, trigger, created_at FROM runs WHERE thread_id = ? ORDER BY ordinal"),
    nextOrdinal: db.prepare<[string], { next: number }>("SELECT COALESCE(MAX(ordinal), 0) + 1 AS next FROM runs WHERE thread_id = ?"),
    insertRun: db.prepare(
      `INSERT INTO runs (run_id, thread_id, agent_id, user_id, parent_run_id, trigger, status, input, log, created_at, ordinal)
       VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)`,
    ),
    finishRun: db.prepare("UPDATE runs SET status = ?, outcome = ?, error = ?, usage = ?, finished_at = ? WHERE run_id = ? AND status = 'running'"),
    runStatus: db.prepare<[string], { status: string }>("SELECT status FROM runs WHERE run_id = ?"),
    getLog: db.prepare<[string], { log: string }>("SELECT log FROM runs WHERE run_id = ?"),
    setLog: db.prepare("UPDATE runs SET log = ? WHERE run_id = ?"),
    insertPage: db.prepare("INSERT INTO event_pages (run_id, first_seq, last_seq, body) VALUES (?, ?, ?, ?)"),
    readPages: db.prepare<[string, number], { first_seq: number; body: Buffer }>(
      "SELECT first_seq, body FROM event_pages WHERE run_id = ? AND last_seq > ? ORDER BY first_seq",
    ),
    getInterrupt: db.prepare<[string], InterruptRow>("SELECT * FROM interrupts WHERE interrupt_id = ?"),
    getPendingInterrupts: db.prepare<[string], InterruptRow>("SELECT * FROM interrupts WHERE thread_id = ? AND status = 'pending' ORDER BY rowid"),
    insertInterrupt: db.prepare("INSERT INTO interrupts (interrupt_id, thread_id, run_id, body, status) VALUES (?, ?, ?, ?, 'pending')"),
    resolveInterrupt: db.prepare("UPDATE interrupts SET status = ?, answer = ?, resolved_by_run_id = ? WHERE interrupt_id = ? AND status = 'pending'"),
    insertReport: db.prepare("INSERT INTO reports (run_id, received_at, body) VALUES (?, ?, ?)"),
    listReports: db.prepare<[string], { received_at: string; body: string }>("SELECT received_at, body FROM reports WHERE run_id = ? ORDER BY rowid"),
    insertFact: db.prepare("INSERT INTO run_facts (run_id, body) VALUES (?, ?)"),
    listFacts: db.prepare<[string], { body: string }>("SELECT body FROM run_facts WHERE run_id = ? ORDER BY rowid"),
    runningRuns: db.prepare<[], { run_id: string }>("SELECT run_id FROM runs WHERE status = 'running'"),
    lastSeq: db.prepare<[string], { last: number }>("SELECT COALESCE(MAX(last_seq), 0) AS last FROM event_pages WHERE run_id = ?"),
    lastPage: db.prepare<[string], { first_seq: number; body: Buffer }>(
      "SELECT first_seq, body FROM event_pages WHERE run_id = ? ORDER BY first_seq DESC LIMIT 1",
    ),
    everyMessage: db.prepare<[string], { body: string }>("SELECT body FROM messages WHERE thread_id = ? ORDER BY position"),
    allMessages: db.prepare<[string], { body: string }>("SELECT body FROM messages WHERE thread_id = ? AND superseded_by IS NULL ORDER BY position"),
  };
}
