import { beginRunRefusals, decodePage, endedRunRefusal, splitRunInput } from "../../store/shared/index.ts";
import type { Message } from "@ag-ui/core";
import { TetherError } from "../../../protocol/index.ts";
import { sqliteAttempt } from "./attempt.ts";
import { checkpointInBackground } from "./checkpoints.ts";
import { createGroupCommit } from "./group-commit.ts";
import { cannotOpen, openSqliteDatabase } from "./database.ts";
import { lockDatabaseFile } from "./lock.ts";
import { sqliteLostRuns } from "./lost-runs.ts";
import { toInterrupt, toThread } from "./rows.ts";
import { sqliteRunReads } from "./run-reads.ts";
import { applySchema } from "./schema.ts";
import { sqliteReports } from "./reports.ts";
import { prepareStatements } from "./statements.ts";
import { sqliteRunInputs } from "./run-inputs.ts";
import { sqliteWrites } from "./writes.ts";
import type { BeginRun, CommitStep, FinishRun, PendingToolCall, RunLogEntry, RunReport, RunStore, StoredEvent, StoredFact } from "../../store/index.ts";
import { checkSqliteRunStoreOptions, type SqliteRunStoreOptions } from "./run-store-options.ts";

/** Page writes are retried by the hub, so they wait only briefly here. */
const EVENTS_WAIT_MS = 50;

/**
 * The embedded default: one SQLite file in WAL mode, through better-sqlite3.
 * One process owns the file; writes never block the event loop while another
 * connection holds the lock (they wait asynchronously, then fail with
 * `store_unavailable`).
 */
export function createSqliteRunStore(options: SqliteRunStoreOptions): RunStore {
  checkSqliteRunStoreOptions(options);
  const file = options.filename !== ":memory:";
  const lock = file && options.exclusive !== false ? lockDatabaseFile(options.filename) : undefined;
  let db: ReturnType<typeof openSqliteDatabase>;
  try {
    db = openSqliteDatabase(options.filename);
    applySchema(db);
  } catch (error) {
    lock?.release();
    throw cannotOpen(options.filename, error);
  }
  const now = () => (options.now?.() ?? new Date()).toISOString();
  const startWait = { waitMs: options.startWaitMs ?? 2000 };
  const writeWait = { waitMs: options.writeWaitMs ?? 10_000 };

  const statements = prepareStatements(db);
  const addReport = sqliteReports(db, now);
  const inputs = sqliteRunInputs(db);
  // Every write goes through the group commit: one transaction per turn of the event loop, a savepoint per write.
  const group = createGroupCommit(db);
  const checkpoints = file ? checkpointInBackground(db, options.filename, options) : undefined;

  const writes = sqliteWrites(statements);
  const { insertEvents, appendMessages, insertFacts, insertInterrupt, setState } = writes;
  const { closeApprovalsOf, endLostRun, recoverInterruptedRuns } = sqliteLostRuns(db, statements, writes, now);

  const beginRun = db.transaction((begin: BeginRun) => {
    const { thread, run } = begin;
    const input = splitRunInput(run.input);
    const at = now();
    const existing = statements.getThread.get(thread.threadId);
    if (existing && existing.owner_id !== thread.ownerId) {
      throw beginRunRefusals.threadOfAnotherUser();
    }
    if (statements.getRun.get(run.runId)) {
      throw beginRunRefusals.runExists(run.runId);
    }
    if (statements.getActiveRun.get(thread.threadId)) {
      throw beginRunRefusals.runInProgress();
    }
    if (existing) statements.touchThread.run(at, thread.threadId);
    else statements.insertThread.run(thread.threadId, thread.agentId, thread.ownerId, at, at);
    // Before the run's row, which starts from the thread's state.
    if (begin.state) statements.setThreadState.run(JSON.stringify(begin.state), thread.threadId);
    statements.insertRun.run(
      run.runId,
      thread.agentId,
      run.userId,
      run.parentRunId ?? null,
      run.trigger ? JSON.stringify(run.trigger) : null,
      input.inline,
      JSON.stringify(run.log),
      at,
      thread.threadId,
    );
    inputs.store(thread.threadId, run.runId, input, run.requestSummary);
    insertEvents(run.runId, begin.events);
    insertFacts(run.runId, begin.facts);
    if (begin.supersede) {
      const { afterMessageId, count } = begin.supersede;
      const setAside = statements.supersedeAfter.run(run.runId, thread.threadId, thread.threadId, afterMessageId).changes;
      if (setAside !== count) throw beginRunRefusals.answerMovedOn(afterMessageId);
    }
    appendMessages(thread.threadId, run.runId, begin.messages);
    for (const toolCallId of begin.resolvedToolCallIds) {
      if (statements.deletePending.run(thread.threadId, toolCallId).changes !== 1) throw beginRunRefusals.callAnsweredMeanwhile(toolCallId);
    }
    for (const { interruptId, answer, interrupt } of begin.resolvedInterrupts ?? []) {
      const status = answer.status === "resolved" ? "resolved" : "cancelled";
      if (!statements.getInterrupt.get(interruptId)) insertInterrupt(interrupt);
      if (statements.resolveInterrupt.run(status, JSON.stringify(answer), run.runId, interruptId).changes !== 1) {
        throw new TetherError("resume_conflict", `Interrupt ${interruptId} was already answered.`);
      }
    }
  });

  // A run ended elsewhere takes no more events, and no more steps: its thread may have a new run by now.
  const appendEvents = db.transaction((runId: string, events: StoredEvent[]) => {
    if (statements.runStatus.get(runId)?.status === "running") insertEvents(runId, events);
  });

  const commitStep = db.transaction((step: CommitStep) => {
    const status = statements.runStatus.get(step.runId)?.status;
    if (status !== "running") throw endedRunRefusal(step.runId, status);
    appendMessages(step.threadId, step.runId, step.messages);
    for (const call of step.pending) {
      statements.insertPending.run(step.threadId, call.toolCallId, call.toolName, call.runId, call.arguments);
    }
    for (const stored of step.interrupts ?? []) insertInterrupt(stored);
    insertFacts(step.runId, step.facts);
    if (step.state) setState(step.threadId, step.runId, step.state);
    statements.touchThread.run(now(), step.threadId);
  });

  const finishRun = db.transaction((finish: FinishRun) => {
    const ended = statements.finishRun.run(
      finish.status,
      finish.outcome ? JSON.stringify(finish.outcome) : null,
      finish.error ? JSON.stringify(finish.error) : null,
      finish.usage ? JSON.stringify(finish.usage) : null,
      now(),
      finish.runId,
    );
    // A run someone else already ended (as lost) keeps the end it has.
    if (ended.changes !== 1) return;
    insertEvents(finish.runId, finish.events ?? []);
    insertFacts(finish.runId, finish.facts);
    if (finish.state) setState(statements.getRun.get(finish.runId)!.thread_id, finish.runId, finish.state);
    if (finish.status !== "finished") closeApprovalsOf(finish.runId);
  });

  const appendLog = db.transaction((runId: string, entries: RunLogEntry[]) => {
    const row = statements.getLog.get(runId);
    if (!row) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
    statements.setLog.run(JSON.stringify([...(JSON.parse(row.log) as RunLogEntry[]), ...entries]), runId);
  });
  const appendFacts = db.transaction((runId: string, facts: StoredFact[]) => {
    if (!statements.getLog.get(runId)) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
    insertFacts(runId, facts);
  });

  // Reads rarely meet a lock in WAL mode, but when they do they wait like writes, never blocking the loop.
  const read = <T>(query: () => T) => sqliteAttempt(query, { ...startWait, what: "read from the database" });

  return {
    getThread: (threadId) =>
      read(() => {
        const row = statements.getThread.get(threadId);
        return row && toThread(row);
      }),
    getMessages: (threadId, options = {}) =>
      read(() =>
        (options.beforeRunId
          ? statements.getMessagesBefore.all(options.beforeRunId, threadId)
          : options.withSetAside
            ? statements.everyMessage.all(threadId)
            : statements.getMessages.all(threadId, options.excludeRunId ?? "")
        ).map((row) => JSON.parse(row.body) as Message),
      ),
    getMessageRun: (threadId, messageId) => read(() => statements.getMessageRun.get(threadId, messageId)?.run_id),
    getPendingToolCalls: (threadId) =>
      read(() =>
        statements.getPending
          .all(threadId)
          .map((row): PendingToolCall => ({ toolCallId: row.tool_call_id, toolName: row.tool_name, runId: row.run_id, arguments: row.arguments })),
      ),
    getInterrupt: (interruptId) =>
      read(() => {
        const row = statements.getInterrupt.get(interruptId);
        return row && toInterrupt(row);
      }),
    getPendingInterrupts: (threadId) => read(() => statements.getPendingInterrupts.all(threadId).map(toInterrupt)),
    ...sqliteRunReads(statements, inputs, read),
    async beginRun(begin) {
      await group.run(() => beginRun(begin), { ...startWait, what: "start the run" });
    },
    async appendEvents(runId, events) {
      if (events.length > 0) await group.run(() => appendEvents(runId, events), { waitMs: EVENTS_WAIT_MS, what: "store the run's events" });
    },
    readEvents: (runId, afterSeq = 0) =>
      read(() => {
        const events: StoredEvent[] = [];
        for (const row of statements.readPages.all(runId, afterSeq)) {
          decodePage(row.body).forEach((event, index) => {
            const seq = row.first_seq + index;
            if (seq > afterSeq) events.push({ seq, event });
          });
        }
        return events;
      }),
    getLastEvent: (runId) =>
      read(() => {
        const row = statements.lastPage.get(runId);
        if (!row) return undefined;
        const events = decodePage(row.body);
        return { seq: row.first_seq + events.length - 1, event: events.at(-1)! };
      }),
    async commitStep(step) {
      await group.run(() => commitStep(step), { ...writeWait, what: "store the run's step" });
    },
    async finishRun(finish: FinishRun, { waitMs = writeWait.waitMs } = {}) {
      await group.run(() => finishRun(finish), { waitMs, what: "store how the run ended" });
    },
    async endLostRun(runId, ending) {
      return group.run(() => endLostRun(runId, ending), { ...writeWait, what: "end the run" });
    },
    async appendLog(runId, entries) {
      if (entries.length > 0) await group.run(() => appendLog(runId, entries), { ...writeWait, what: "store the run's log" });
    },
    addReport: (runId, report, caps) => group.run(() => addReport(runId, report, caps), { ...startWait, what: "store the report" }),
    listReports: (runId) =>
      read((): RunReport[] => statements.listReports.all(runId).map((row) => ({ receivedAt: row.received_at, report: JSON.parse(row.body) }))),
    listFacts: (runId) => read(() => statements.listFacts.all(runId).map((row) => JSON.parse(row.body) as StoredFact)),
    appendFacts: (runId, facts) => group.run(() => appendFacts(runId, facts), { ...writeWait, what: "store the run's record facts" }),
    async recoverInterruptedRuns() {
      return group.run(() => recoverInterruptedRuns(), { ...writeWait, what: "recover the runs a stopped process left" });
    },
    async close() {
      await checkpoints?.stop();
      if (db.open) {
        group.flush();
        db.close();
      }
      lock?.release();
    },
  };
}
