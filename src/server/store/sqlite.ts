import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { Message } from "@ag-ui/core";
import { TetherError } from "../../protocol/index.ts";
import { decodePage, encodePage, pages } from "./event-pages.ts";
import { toInterrupt, toRun, toThread, type InterruptRow, type RunRow } from "./sqlite-rows.ts";
import { SCHEMA } from "./sqlite-schema.ts";
import type {
  BeginRun,
  StoredInterrupt,
  CommitStep,
  FinishRun,
  PendingToolCall,
  RunLogEntry,
  RunReport,
  RunStore,
  StoredEvent,
} from "./port.ts";

export interface SqliteRunStoreOptions {
  /** A file path, or `:memory:`. The folder is created when missing. */
  filename: string;
  now?: () => Date;
}


/** The embedded default: one SQLite file in WAL mode, through better-sqlite3. */
export function createSqliteRunStore(options: SqliteRunStoreOptions): RunStore {
  if (options.filename !== ":memory:") mkdirSync(dirname(options.filename), { recursive: true });
  const db = new Database(options.filename);
  db.pragma("journal_mode = WAL");
  // WAL with NORMAL survives a process crash; only an OS crash can lose the last commits.
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.exec(SCHEMA);
  const now = () => (options.now?.() ?? new Date()).toISOString();

  const statements = {
    getThread: db.prepare<[string], { thread_id: string; agent_id: string; owner_id: string; created_at: string; updated_at: string }>(
      "SELECT * FROM threads WHERE thread_id = ?",
    ),
    insertThread: db.prepare("INSERT INTO threads (thread_id, agent_id, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)"),
    touchThread: db.prepare("UPDATE threads SET updated_at = ? WHERE thread_id = ?"),
    getMessages: db.prepare<[string, string], { body: string }>("SELECT body FROM messages WHERE thread_id = ? AND run_id != ? ORDER BY position"),
    getMessageRun: db.prepare<[string, string], { run_id: string }>("SELECT run_id FROM messages WHERE thread_id = ? AND message_id = ?"),
    nextPosition: db.prepare<[string], { next: number }>("SELECT COALESCE(MAX(position), -1) + 1 AS next FROM messages WHERE thread_id = ?"),
    insertMessage: db.prepare("INSERT INTO messages (thread_id, position, message_id, run_id, body) VALUES (?, ?, ?, ?, ?)"),
    getPending: db.prepare<[string], { tool_call_id: string; tool_name: string; run_id: string; arguments: string }>(
      "SELECT tool_call_id, tool_name, run_id, arguments FROM pending_tool_calls WHERE thread_id = ? ORDER BY rowid",
    ),
    insertPending: db.prepare("INSERT OR REPLACE INTO pending_tool_calls (thread_id, tool_call_id, tool_name, run_id, arguments) VALUES (?, ?, ?, ?, ?)"),
    deletePending: db.prepare("DELETE FROM pending_tool_calls WHERE thread_id = ? AND tool_call_id = ?"),
    getRun: db.prepare<[string], RunRow>("SELECT * FROM runs WHERE run_id = ?"),
    getActiveRun: db.prepare<[string], RunRow>("SELECT * FROM runs WHERE thread_id = ? AND status = 'running' LIMIT 1"),
    listRuns: db.prepare<[string], RunRow>("SELECT * FROM runs WHERE thread_id = ? ORDER BY ordinal"),
    nextOrdinal: db.prepare<[string], { next: number }>("SELECT COALESCE(MAX(ordinal), 0) + 1 AS next FROM runs WHERE thread_id = ?"),
    insertRun: db.prepare(
      `INSERT INTO runs (run_id, thread_id, agent_id, user_id, parent_run_id, trigger, status, input, log, created_at, ordinal)
       VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)`,
    ),
    finishRun: db.prepare("UPDATE runs SET status = ?, outcome = ?, error = ?, usage = ?, finished_at = ? WHERE run_id = ? AND status = 'running'"),
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
    runningRuns: db.prepare<[], { run_id: string; thread_id: string }>("SELECT run_id, thread_id FROM runs WHERE status = 'running'"),
    lastSeq: db.prepare<[string], { last: number }>("SELECT COALESCE(MAX(last_seq), 0) AS last FROM event_pages WHERE run_id = ?"),
    recover: db.prepare("UPDATE runs SET status = 'error', error = ?, finished_at = ? WHERE run_id = ? AND status = 'running'"),
  };

  const appendMessages = (threadId: string, runId: string, messages: Message[]) => {
    let position = statements.nextPosition.get(threadId)!.next;
    for (const message of messages) {
      statements.insertMessage.run(threadId, position++, message.id, runId, JSON.stringify(message));
    }
  };

  const insertInterrupt = (stored: StoredInterrupt) => {
    const { status: _status, answer: _answer, resolvedByRunId: _by, ...body } = stored;
    statements.insertInterrupt.run(stored.interrupt.id, stored.threadId, stored.runId, JSON.stringify(body));
  };

  const beginRun = db.transaction((begin: BeginRun) => {
    const { thread, run } = begin;
    const at = now();
    const existing = statements.getThread.get(thread.threadId);
    if (existing && existing.owner_id !== thread.ownerId) {
      throw new TetherError("forbidden", "This thread belongs to another user.");
    }
    if (statements.getRun.get(run.runId)) {
      throw new TetherError("run_exists", `Run ${run.runId} already exists; every run needs a new runId.`);
    }
    if (statements.getActiveRun.get(thread.threadId)) {
      throw new TetherError("run_in_progress", "This thread already has a run in progress; wait for it to finish or cancel it.");
    }
    if (existing) statements.touchThread.run(at, thread.threadId);
    else statements.insertThread.run(thread.threadId, thread.agentId, thread.ownerId, at, at);
    statements.insertRun.run(
      run.runId,
      thread.threadId,
      thread.agentId,
      run.userId,
      run.parentRunId ?? null,
      run.trigger ? JSON.stringify(run.trigger) : null,
      JSON.stringify(run.input),
      JSON.stringify(run.log),
      at,
      statements.nextOrdinal.get(thread.threadId)!.next,
    );
    appendMessages(thread.threadId, run.runId, begin.messages);
    for (const toolCallId of begin.resolvedToolCallIds) statements.deletePending.run(thread.threadId, toolCallId);
    for (const { interruptId, answer, interrupt } of begin.resolvedInterrupts ?? []) {
      const status = answer.status === "resolved" ? "resolved" : "cancelled";
      if (!statements.getInterrupt.get(interruptId)) insertInterrupt(interrupt);
      if (statements.resolveInterrupt.run(status, JSON.stringify(answer), run.runId, interruptId).changes !== 1) {
        throw new TetherError("resume_conflict", `Interrupt ${interruptId} was already answered.`);
      }
    }
  });

  const appendEvents = db.transaction((runId: string, events: StoredEvent[]) => {
    for (const page of pages(events)) {
      statements.insertPage.run(runId, page[0]!.seq, page.at(-1)!.seq, encodePage(page));
    }
  });

  const commitStep = db.transaction((step: CommitStep) => {
    appendMessages(step.threadId, step.runId, step.messages);
    for (const call of step.pending) {
      statements.insertPending.run(step.threadId, call.toolCallId, call.toolName, call.runId, call.arguments);
    }
    for (const stored of step.interrupts ?? []) insertInterrupt(stored);
    statements.touchThread.run(now(), step.threadId);
  });

  // Each run a stopped process left running gets its end: a RUN_ERROR in its log, so a client replaying it sees how it ended.
  const recoverInterruptedRuns = db.transaction(() => {
    const error = { code: "internal", message: "The server stopped while this run was in progress." };
    const runs = statements.runningRuns.all();
    for (const { run_id: runId, thread_id: threadId } of runs) {
      const seq = statements.lastSeq.get(runId)!.last + 1;
      const event = { type: "RUN_ERROR", ...error, metadata: { tether: { runId, threadId } } } as StoredEvent["event"];
      statements.insertPage.run(runId, seq, seq, encodePage([{ seq, event }]));
      statements.recover.run(JSON.stringify(error), now(), runId);
    }
    return runs.length;
  });

  const appendLog = db.transaction((runId: string, entries: RunLogEntry[]) => {
    const row = statements.getLog.get(runId);
    if (!row) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
    statements.setLog.run(JSON.stringify([...(JSON.parse(row.log) as RunLogEntry[]), ...entries]), runId);
  });

  return {
    async getThread(threadId) {
      const row = statements.getThread.get(threadId);
      return row && toThread(row);
    },
    async getMessages(threadId, options = {}) {
      return statements.getMessages.all(threadId, options.excludeRunId ?? "").map((row) => JSON.parse(row.body) as Message);
    },
    async getMessageRun(threadId, messageId) {
      return statements.getMessageRun.get(threadId, messageId)?.run_id;
    },
    async getPendingToolCalls(threadId) {
      return statements.getPending.all(threadId).map(
        (row): PendingToolCall => ({ toolCallId: row.tool_call_id, toolName: row.tool_name, runId: row.run_id, arguments: row.arguments }),
      );
    },
    async getInterrupt(interruptId) {
      const row = statements.getInterrupt.get(interruptId);
      return row && toInterrupt(row);
    },
    async getPendingInterrupts(threadId) {
      return statements.getPendingInterrupts.all(threadId).map(toInterrupt);
    },
    async getRun(runId) {
      const row = statements.getRun.get(runId);
      return row && toRun(row);
    },
    async getActiveRun(threadId) {
      const row = statements.getActiveRun.get(threadId);
      return row && toRun(row);
    },
    async listRuns(threadId) {
      return statements.listRuns.all(threadId).map(toRun);
    },
    async beginRun(begin) {
      beginRun(begin);
    },
    async appendEvents(runId, events) {
      if (events.length > 0) appendEvents(runId, events);
    },
    async readEvents(runId, afterSeq = 0) {
      const events: StoredEvent[] = [];
      for (const row of statements.readPages.all(runId, afterSeq)) {
        decodePage(row.body).forEach((event, index) => {
          const seq = row.first_seq + index;
          if (seq > afterSeq) events.push({ seq, event });
        });
      }
      return events;
    },
    async commitStep(step) {
      commitStep(step);
    },
    async finishRun(finish: FinishRun) {
      statements.finishRun.run(
        finish.status,
        finish.outcome ? JSON.stringify(finish.outcome) : null,
        finish.error ? JSON.stringify(finish.error) : null,
        finish.usage ? JSON.stringify(finish.usage) : null,
        now(),
        finish.runId,
      );
    },
    async appendLog(runId, entries) {
      if (entries.length > 0) appendLog(runId, entries);
    },
    async addReport(runId, report) {
      statements.insertReport.run(runId, now(), JSON.stringify(report));
    },
    async listReports(runId): Promise<RunReport[]> {
      return statements.listReports.all(runId).map((row) => ({ receivedAt: row.received_at, report: JSON.parse(row.body) }));
    },
    async recoverInterruptedRuns() {
      return recoverInterruptedRuns();
    },
    async close() {
      if (db.open) db.close();
    },
  };
}

