import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Message } from "@ag-ui/core";
import { TetherError } from "../../../protocol/index.ts";
import { beginRunRefusals, decodePage, endedRunRefusal, splitRunInput } from "../../store/shared/index.ts";
import { isPgRetryable, toPgStoreError } from "./errors.ts";
import { holdInstanceLock, type PgInstanceLock } from "./instance.ts";
import { pgLostRuns } from "./lost-runs.ts";
import { pgClock } from "./clock.ts";
import { pgInterrupt, pgThread, type PgInterruptRow, type PgThreadRow } from "./rows.ts";
import { pgRunReads } from "./run-reads.ts";
import { cannotOpenPg, openPgRunner } from "./open.ts";
import type { PgRunStoreOptions } from "./run-store-options.ts";
import type { PgQueries } from "./runner.ts";
import { migratePgSchema } from "./schema.ts";
import { pgCancelRequests } from "./cancel-requests.ts";
import { pgReports } from "./reports.ts";
import { pgStatements } from "./statements.ts";
import { pgWrites } from "./writes.ts";
import { pgRunInputs } from "./run-inputs.ts";
import type { PendingToolCall, RunLogEntry, RunStore, StoredEvent, StoredFact } from "../../store/index.ts";

export type { PgRunStoreOptions };

/** A transaction that lost a race PostgreSQL detected is run again, at most this many times in all. */
const ATTEMPTS = 3;

/**
 * The store on PostgreSQL, for several Tether instances sharing one database
 * (`TETHER_DATABASE_URL`). Same contract as the SQLite store; every method
 * that changes more than one row is one transaction, and what must hold
 * across instances is the database's to enforce (one running run per thread
 * is a unique index; a thread's writes queue on its row lock). Migrations run
 * before it returns, safely when instances start together.
 *
 * @example
 * const store = await createPgRunStore({ connectionString: process.env.TETHER_DATABASE_URL });
 */
export async function createPgRunStore(options: PgRunStoreOptions): Promise<RunStore> {
  const runner = await openPgRunner(options);
  const schema = options.schema ?? "tether";
  const instanceId = options.instanceId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const ownerKey = (owner: string) => `${schema}:${owner}`;
  let lock: PgInstanceLock;
  try {
    await migratePgSchema(runner, schema);
    lock = await holdInstanceLock(runner, ownerKey(instanceId), { name: instanceId, onLost: options.onInstanceLockLost });
  } catch (error) {
    await runner.end().catch(() => undefined);
    throw cannotOpenPg({ ...options, schema }, error);
  }
  const sql = pgStatements(schema);
  const now = () => (options.now?.() ?? new Date()).toISOString();
  const write = async <T>(what: string, work: (tx: PgQueries) => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await runner.transaction(work);
      } catch (error) {
        if (attempt < ATTEMPTS && isPgRetryable(error)) continue;
        throw toPgStoreError(error, what);
      }
    }
  };
  /** One statement on its own, outside any transaction: a read, or a write that is atomic by itself. */
  const single = async <T>(what: string, query: () => Promise<T>): Promise<T> => {
    try {
      return await query();
    } catch (error) {
      throw toPgStoreError(error, what);
    }
  };
  const read = <T>(query: () => Promise<T>) => single("read from the database", query);
  const rows = async <Row>(text: string, values: unknown[]) => (await read(() => runner.query<Row>(text, values))).rows;
  const writes = pgWrites(sql);
  const { insertEvents, appendMessages, insertFacts, insertInterrupt, upsertPending } = writes;
  const addReport = pgReports(schema);
  const inputs = pgRunInputs(schema);

  const { closeApprovalsOf, endLost, endRunsOf, endRunsOfLostInstances } = pgLostRuns({ sql, writes, instanceId, ownerKey, now, write, rows });

  return {
    async getThread(threadId) {
      const [row] = await rows<PgThreadRow>(sql.getThread, [threadId]);
      return row && pgThread(row);
    },
    async getMessages(threadId, options = {}) {
      const found = options.beforeRunId
        ? await rows<{ body: Message }>(sql.getMessagesBefore, [threadId, options.beforeRunId])
        : options.withSetAside
          ? await rows<{ body: Message }>(sql.everyMessage, [threadId])
          : await rows<{ body: Message }>(sql.getMessages, [threadId, options.excludeRunId ?? ""]);
      return found.map((row) => row.body);
    },
    async getMessageRun(threadId, messageId) {
      return (await rows<{ run_id: string }>(sql.getMessageRun, [threadId, messageId]))[0]?.run_id;
    },
    async getPendingToolCalls(threadId) {
      const found = await rows<{ tool_call_id: string; tool_name: string; run_id: string; arguments: string }>(sql.getPending, [threadId]);
      return found.map((row): PendingToolCall => ({ toolCallId: row.tool_call_id, toolName: row.tool_name, runId: row.run_id, arguments: row.arguments }));
    },
    async getInterrupt(interruptId) {
      const [row] = await rows<PgInterruptRow>(sql.getInterrupt, [interruptId]);
      return row && pgInterrupt(row);
    },
    async getPendingInterrupts(threadId) {
      return (await rows<PgInterruptRow>(sql.getPendingInterrupts, [threadId])).map(pgInterrupt);
    },
    ...pgRunReads(sql, inputs, runner, rows, read),
    async beginRun(begin) {
      const { thread, run } = begin;
      const input = splitRunInput(run.input);
      // A run begun while the lock is lost could be ended as lost by another instance as it starts.
      if (!lock.held()) throw new TetherError("store_unavailable", "This server lost its hold on the database and is taking it back; try again in a moment.");
      await write("start the run", async (tx) => {
        const at = now();
        // Creates the thread or takes its lock: two starts on one thread, on any instances, go one after the other from here.
        const state = begin.state ? JSON.stringify(begin.state) : null;
        const [row] = (await tx.query<{ owner_id: string }>(sql.upsertThread, [thread.threadId, thread.agentId, thread.ownerId, at, state])).rows;
        if (row?.owner_id !== thread.ownerId) throw beginRunRefusals.threadOfAnotherUser();
        const [checks] = (await tx.query<{ taken: boolean; busy: boolean }>(sql.beginChecks, [run.runId, thread.threadId])).rows;
        if (checks?.taken) throw beginRunRefusals.runExists(run.runId);
        if (checks?.busy) throw beginRunRefusals.runInProgress();
        await tx.query(sql.insertRun, [
          run.runId,
          thread.threadId,
          thread.agentId,
          run.userId,
          run.parentRunId ?? null,
          run.trigger ? JSON.stringify(run.trigger) : null,
          input.inline,
          JSON.stringify(run.log),
          instanceId,
          at,
        ]);
        await inputs.store(tx, thread.threadId, run.runId, input, run.requestSummary);
        await insertEvents(tx, run.runId, begin.events);
        await insertFacts(tx, run.runId, begin.facts);
        if (begin.supersede) {
          const { afterMessageId, count } = begin.supersede;
          const setAside = await tx.query(sql.supersedeAfter, [thread.threadId, afterMessageId, run.runId]);
          if (setAside.count !== count) throw beginRunRefusals.answerMovedOn(afterMessageId);
        }
        await appendMessages(tx, thread.threadId, run.runId, begin.messages);
        if (begin.resolvedToolCallIds.length > 0) {
          const answered = await tx.query<{ tool_call_id: string }>(sql.deletePending, [thread.threadId, begin.resolvedToolCallIds]);
          const gone = begin.resolvedToolCallIds.find((toolCallId) => !answered.rows.some((row) => row.tool_call_id === toolCallId));
          if (gone) throw beginRunRefusals.callAnsweredMeanwhile(gone);
        }
        for (const { interruptId, answer, interrupt } of begin.resolvedInterrupts ?? []) {
          const status = answer.status === "resolved" ? "resolved" : "cancelled";
          await insertInterrupt(tx, interrupt); // only when the store never saw the question
          const resolved = await tx.query(sql.resolveInterrupt, [interruptId, status, JSON.stringify(answer), run.runId]);
          if (resolved.count !== 1) throw new TetherError("resume_conflict", `Interrupt ${interruptId} was already answered.`);
        }
      });
    },
    async appendEvents(runId, events) {
      if (events.length === 0) return;
      // One statement, atomic without a transaction around it (the hot path: no BEGIN and COMMIT round trips);
      // a page already stored (a retry after a lost answer) is skipped, not an error.
      await single("store the run's events", () => insertEvents(runner, runId, events, sql.appendPages));
    },
    async readEvents(runId, afterSeq = 0) {
      const events: StoredEvent[] = [];
      for (const row of await rows<{ first_seq: number; body: Uint8Array }>(sql.readPages, [runId, afterSeq])) {
        decodePage(row.body).forEach((event, index) => {
          const seq = row.first_seq + index;
          if (seq > afterSeq) events.push({ seq, event });
        });
      }
      return events;
    },
    async getLastEvent(runId) {
      const [row] = await rows<{ first_seq: number; body: Uint8Array }>(sql.lastPage, [runId]);
      if (!row) return undefined;
      const events = decodePage(row.body);
      return { seq: row.first_seq + events.length - 1, event: events.at(-1)! };
    },
    async commitStep(step) {
      await write("store the run's step", async (tx) => {
        await tx.query(sql.touchThread, [step.threadId, now()]); // takes the thread's lock first, as every thread write does
        // Under that lock a run's end is settled: one ended elsewhere (its instance lost) keeps its thread as it left it.
        const [run] = (await tx.query<{ status: string }>(sql.runStatus, [step.runId])).rows;
        if (run?.status !== "running") throw endedRunRefusal(step.runId, run?.status);
        await appendMessages(tx, step.threadId, step.runId, step.messages);
        await upsertPending(tx, step.threadId, step.pending);
        for (const stored of step.interrupts ?? []) await insertInterrupt(tx, stored);
        await insertFacts(tx, step.runId, step.facts);
        if (step.state) await tx.query(sql.setState, [step.threadId, step.runId, JSON.stringify(step.state)]);
      });
    },
    async finishRun(finish, { waitMs } = {}) {
      await write("store how the run ended", async (tx) => {
        if (waitMs !== undefined) await tx.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(waitMs))}`);
        const [run] = (await tx.query<{ thread_id: string; status: string }>(sql.lockRunThread, [finish.runId])).rows;
        // A run someone else already ended (as lost) keeps the end it has.
        if (run?.status !== "running") return;
        await tx.query(sql.finishRun, [
          finish.runId,
          finish.status,
          finish.outcome ? JSON.stringify(finish.outcome) : null,
          finish.error ? JSON.stringify(finish.error) : null,
          finish.usage ? JSON.stringify(finish.usage) : null,
          now(),
        ]);
        await insertEvents(tx, finish.runId, finish.events ?? []);
        await insertFacts(tx, finish.runId, finish.facts);
        if (finish.state) await tx.query(sql.setState, [run.thread_id, finish.runId, JSON.stringify(finish.state)]);
        if (finish.status !== "finished") await closeApprovalsOf(tx, finish.runId, run.thread_id);
      });
    },
    async endLostRun(runId, ending) {
      return write("end the run", (tx) => endLost(tx, runId, ending));
    },
    async appendLog(runId, entries: RunLogEntry[]) {
      if (entries.length === 0) return;
      await write("store the run's log", async (tx) => {
        const [row] = (await tx.query<{ log: RunLogEntry[] }>(sql.lockLog, [runId])).rows;
        if (!row) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
        await tx.query(sql.setLog, [runId, JSON.stringify([...row.log, ...entries])]);
      });
    },
    addReport: (runId, report, caps) => write("store the report", (tx) => addReport(tx, runId, report, now(), caps)),
    async listReports(runId) {
      return (await rows<{ received_at: Date; body: unknown }>(sql.listReports, [runId])).map((row) => ({
        receivedAt: row.received_at.toISOString(),
        report: row.body,
      }));
    },
    async listFacts(runId) {
      return (await rows<{ body: StoredFact }>(sql.listFacts, [runId])).map((row) => row.body);
    },
    appendFacts: (runId, facts) =>
      write("store the run's record facts", async (tx) => {
        if ((await tx.query(sql.runStatus, [runId])).rows.length === 0) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
        await insertFacts(tx, runId, facts);
      }),
    /**
     * Ends the running runs of instances that are gone, never those of an
     * instance still alive: each owner's liveness lock (pg-instance.ts) is
     * tried first, and its runs are ended only when the lock could be taken.
     * Runs of this instance are alive by definition. At start-up, and through
     * `endRunsOfLostInstances` every few seconds while instances run.
     */
    // At start this instance has begun no run: any under its name were left by an earlier life of it (a restart under a fixed instanceId).
    recoverInterruptedRuns: async () => (await endRunsOf(instanceId)) + (await endRunsOfLostInstances()),
    // One process on an embedded PGlite: nothing else can die holding its runs.
    ...(options.pglite ? {} : { endRunsOfLostInstances, onOwnershipLost: (listener: (error: unknown) => void) => lock.onLost(listener) }),
    ...pgCancelRequests({ runner, schema, instanceId, now }),
    now: () => read(pgClock(runner, options.now)),
    async close() {
      await lock.release();
      await runner.end();
    },
  };
}
