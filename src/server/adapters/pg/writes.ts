import type { Message } from "@ag-ui/core";
import { encodePage, pages } from "../../store/shared/index.ts";
import type { PgQueries } from "./runner.ts";
import type { PgStatements } from "./statements.ts";
import type { PendingToolCall, StoredEvent, StoredFact, StoredInterrupt } from "../../store/index.ts";

/**
 * The PostgreSQL store's row writers, each one statement inside the caller's
 * transaction (or on its own): batches go as arrays, one round trip each.
 */
export function pgWrites(sql: PgStatements) {
  return {
    /** `statement` is `appendPages` for events of a run that may have ended elsewhere meanwhile. */
    async insertEvents(tx: PgQueries, runId: string, events: StoredEvent[], statement = sql.insertPages) {
      const split = pages(events);
      if (split.length === 0) return;
      await tx.query(statement, [runId, split.map((page) => page[0]!.seq), split.map((page) => page.at(-1)!.seq), split.map(encodePage)]);
    },
    async appendMessages(tx: PgQueries, threadId: string, runId: string, messages: Message[]) {
      if (messages.length === 0) return;
      await tx.query(sql.insertMessages, [threadId, runId, messages.map((message) => message.id), messages.map((message) => JSON.stringify(message))]);
    },
    async insertFacts(tx: PgQueries, runId: string, facts: StoredFact[] | undefined) {
      if (facts && facts.length > 0) await tx.query(sql.insertFacts, [runId, facts.map((fact) => JSON.stringify(fact))]);
    },
    async insertInterrupt(tx: PgQueries, stored: StoredInterrupt) {
      const { status: _status, answer: _answer, resolvedByRunId: _by, ...body } = stored;
      await tx.query(sql.insertInterrupt, [stored.interrupt.id, stored.threadId, stored.runId, JSON.stringify(body)]);
    },
    async upsertPending(tx: PgQueries, threadId: string, calls: PendingToolCall[]) {
      // The last word on a call id wins, as a replace would; one statement may not touch a row twice.
      const unique = [...new Map(calls.map((call) => [call.toolCallId, call])).values()];
      if (unique.length === 0) return;
      await tx.query(sql.upsertPending, [
        threadId,
        unique.map((call) => call.toolCallId),
        unique.map((call) => call.toolName),
        unique.map((call) => call.runId),
        unique.map((call) => call.arguments),
      ]);
    },
  };
}
