import type { RunRecordDocument } from "../../protocol/index.ts";
import type { StoredRun } from "../store/index.ts";

/**
 * How a run finished, as a record and a thread's chain show it: the interrupts
 * it asked, or the browser calls it left pending (a run waiting for the
 * browser, not one that is done).
 */
export function recordOutcome(outcome: NonNullable<StoredRun["outcome"]>): NonNullable<RunRecordDocument["outcome"]> {
  const { type } = outcome;
  if (type === "interrupt") return { type, interruptIds: (outcome.interrupts ?? []).map((interrupt) => interrupt.id) };
  const pending = (outcome as { pendingToolCallIds?: string[] }).pendingToolCallIds;
  return { type: type as "success" | "cancelled", ...(pending && pending.length > 0 ? { pendingToolCallIds: pending } : {}) };
}
