import type Database from "better-sqlite3";
import type { Message } from "@ag-ui/core";
import { closeUnaskedApprovals, lostRunEvents } from "../../store/shared/index.ts";
import { toInterrupt } from "./rows.ts";
import type { prepareStatements } from "./statements.ts";
import type { sqliteWrites } from "./writes.ts";
import type { LostRunEnding, StoredEvent } from "../../store/index.ts";

/** What the SQLite store does with runs whose process is gone (named, so the published declarations need no better-sqlite3 type). */
export interface SqliteLostRuns {
  closeApprovalsOf(runId: string): void;
  endLostRun(runId: string, ending: LostRunEnding): StoredEvent[] | undefined;
  recoverInterruptedRuns(): number;
}

/**
 * How the SQLite store ends runs whose process is gone, and closes the
 * approvals of a run that ends without them answered. `closeApprovalsOf`
 * runs inside the caller's transaction; the others are transactions.
 */
export function sqliteLostRuns(
  db: Database.Database,
  statements: ReturnType<typeof prepareStatements>,
  writes: ReturnType<typeof sqliteWrites>,
  now: () => string,
): SqliteLostRuns {
  const { insertEvents, appendMessages } = writes;

  /** Closes the approvals a run asked for that nobody will see, answering their calls in the thread. */
  const closeApprovalsOf = (runId: string) => {
    const row = statements.getRun.get(runId)!;
    const closed = closeUnaskedApprovals(runId, statements.getPendingInterrupts.all(row.thread_id).map(toInterrupt));
    for (const { interruptId, answer } of closed) statements.resolveInterrupt.run("cancelled", JSON.stringify(answer), runId, interruptId);
    appendMessages(
      row.thread_id,
      runId,
      closed.map(({ result }) => result),
    );
  };

  const endLostRun = db.transaction((runId: string, ending: LostRunEnding): StoredEvent[] | undefined => {
    const row = statements.getRun.get(runId);
    if (row?.status !== "running") return undefined;
    closeApprovalsOf(runId);
    const messages = statements.allMessages.all(row.thread_id).map((message) => JSON.parse(message.body) as Message);
    const state = statements.getThread.get(row.thread_id)?.state;
    const lastStoredSeq = statements.lastSeq.get(runId)!.last;
    const events = lostRunEvents({ runId, threadId: row.thread_id, lastStoredSeq, messages, ...(state ? { state: JSON.parse(state) } : {}) }, ending);
    insertEvents(runId, events);
    statements.finishRun.run(ending.status, null, JSON.stringify({ code: ending.code, message: ending.message }), null, now(), runId);
    return events;
  });

  const recoverInterruptedRuns = db.transaction(() => {
    const runs = statements.runningRuns.all();
    for (const { run_id: runId } of runs) {
      endLostRun(runId, { code: "instance_lost", status: "error", message: "The server stopped while this run was in progress." });
    }
    return runs.length;
  });

  return { closeApprovalsOf, endLostRun, recoverInterruptedRuns };
}
