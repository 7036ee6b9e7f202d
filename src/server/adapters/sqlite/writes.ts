import type { Message } from "@ag-ui/core";
import { beginRunRefusals, encodePage, pages } from "../../store/shared/index.ts";
import type { AgentState, StoredEvent, StoredFact, StoredInterrupt } from "../../store/index.ts";
import type { prepareStatements } from "./statements.ts";

/**
 * The SQLite store's row writers, each run inside the caller's transaction
 * (better-sqlite3 is synchronous: a transaction is a plain function call).
 */
export function sqliteWrites(statements: ReturnType<typeof prepareStatements>) {
  return {
    insertEvents(runId: string, events: StoredEvent[]) {
      for (const page of pages(events)) {
        statements.insertPage.run(runId, page[0]!.seq, page.at(-1)!.seq, encodePage(page));
      }
    },
    appendMessages(threadId: string, runId: string, messages: Message[]) {
      let position = statements.nextPosition.get(threadId)!.next;
      for (const message of messages) {
        try {
          statements.insertMessage.run(threadId, position++, message.id, runId, JSON.stringify(message));
        } catch (error) {
          if ((error as { code?: unknown }).code === "SQLITE_CONSTRAINT_UNIQUE") throw beginRunRefusals.messageIdUsed(message.id);
          throw error;
        }
      }
    },
    insertFacts(runId: string, facts: StoredFact[] | undefined) {
      for (const fact of facts ?? []) statements.insertFact.run(runId, JSON.stringify(fact));
    },
    /** A committed change of shared state: the thread's current value and the run's latest. */
    setState(threadId: string, runId: string, state: AgentState) {
      const json = JSON.stringify(state);
      statements.setThreadState.run(json, threadId);
      statements.setRunState.run(json, runId);
    },
    insertInterrupt(stored: StoredInterrupt) {
      const { status: _status, answer: _answer, resolvedByRunId: _by, ...body } = stored;
      statements.insertInterrupt.run(stored.interrupt.id, stored.threadId, stored.runId, JSON.stringify(body));
    },
  };
}
