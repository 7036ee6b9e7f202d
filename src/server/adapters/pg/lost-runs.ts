import type { Message } from "@ag-ui/core";
import { closeUnaskedApprovals, lostRunEvents } from "../../store/shared/index.ts";
import { claimOwnerIfGone } from "./instance.ts";
import { pgInterrupt, type PgInterruptRow, type PgThreadRow } from "./rows.ts";
import type { PgQueries } from "./runner.ts";
import type { PgStatements } from "./statements.ts";
import type { pgWrites } from "./writes.ts";
import type { LostRunEnding, StoredEvent } from "../../store/index.ts";

/**
 * How the PostgreSQL store ends runs whose process is gone, and closes the
 * approvals of a run that ends without them answered. `write` runs one
 * transaction (retried on a lost race), `rows` one read; `ownerKey` names an
 * instance's liveness lock.
 */
export function pgLostRuns(options: {
  sql: PgStatements;
  writes: ReturnType<typeof pgWrites>;
  instanceId: string;
  ownerKey: (owner: string) => string;
  now: () => string;
  write: <T>(what: string, work: (tx: PgQueries) => Promise<T>) => Promise<T>;
  rows: <Row>(text: string, values: unknown[]) => Promise<Row[]>;
}) {
  const { sql, instanceId, ownerKey, now, write, rows } = options;
  const { insertEvents, appendMessages } = options.writes;

  /** Closes the approvals a run asked for that nobody will see, answering their calls in the thread. */
  const closeApprovalsOf = async (tx: PgQueries, runId: string, threadId: string) => {
    const pending = (await tx.query<PgInterruptRow>(sql.getPendingInterrupts, [threadId])).rows.map(pgInterrupt);
    const closed = closeUnaskedApprovals(runId, pending);
    for (const { interruptId, answer } of closed) await tx.query(sql.resolveInterrupt, [interruptId, "cancelled", JSON.stringify(answer), runId]);
    await appendMessages(
      tx,
      threadId,
      runId,
      closed.map(({ result }) => result),
    );
  };

  /**
   * Ends a running run whose process is gone, inside the caller's transaction. A run another instance is executing is
   * left alone while that instance lives (its liveness lock is held): "gone" is the database's word, not a guess.
   */
  const endLost = async (tx: PgQueries, runId: string, ending: LostRunEnding): Promise<StoredEvent[] | undefined> => {
    const [run] = (await tx.query<{ thread_id: string; status: string; owner: string | null }>(sql.lockRunThread, [runId])).rows;
    if (run?.status !== "running") return undefined;
    if (run.owner !== instanceId && !(await claimOwnerIfGone(tx, ownerKey(run.owner ?? "")))) return undefined;
    await closeApprovalsOf(tx, runId, run.thread_id);
    const messages = (await tx.query<{ body: Message }>(sql.allMessages, [run.thread_id])).rows.map((row) => row.body);
    const [last] = (await tx.query<{ last: number }>(sql.lastSeq, [runId])).rows;
    const [thread] = (await tx.query<PgThreadRow>(sql.getThread, [run.thread_id])).rows;
    const state = thread?.state ? { state: thread.state } : {};
    const events = lostRunEvents({ runId, threadId: run.thread_id, lastStoredSeq: last?.last ?? 0, messages, ...state }, ending);
    await insertEvents(tx, runId, events);
    await tx.query(sql.finishRun, [runId, ending.status, null, JSON.stringify({ code: ending.code, message: ending.message }), null, now()]);
    return events;
  };

  /**
   * One transaction per gone owner; two instances sweeping at once never both end a run: the owner's lock, taken for
   * the transaction, admits one, and the other finds the owner claimed (or, later, its runs ended).
   */
  const endRunsOf = (owner: string) =>
    write("end the runs a stopped instance left", async (tx) => {
      if (owner !== instanceId && !(await claimOwnerIfGone(tx, ownerKey(owner)))) return 0;
      let count = 0;
      for (const { run_id: runId } of (await tx.query<{ run_id: string }>(sql.runningRunsOf, [owner])).rows) {
        if (await endLost(tx, runId, { code: "instance_lost", status: "error", message: "The server stopped while this run was in progress." })) count++;
      }
      return count;
    });
  const endRunsOfLostInstances = async () => {
    let ended = 0;
    for (const { owner } of await rows<{ owner: string }>(sql.runningOwners, [instanceId])) ended += await endRunsOf(owner);
    return ended;
  };

  return { closeApprovalsOf, endLost, endRunsOf, endRunsOfLostInstances };
}
