import type { ResumeEntry, ToolMessage } from "@ag-ui/core";
import type { StoredInterrupt } from "../port.ts";

/**
 * What becomes of the approvals a run asked for when it ends without the
 * question reaching anyone: it failed after storing them (its end could not
 * be saved), or its process died. Nobody can answer a question they never
 * saw, so each is closed as cancelled, and its call gets a result saying it
 * did not run: the thread is never stuck on an invisible question.
 */
export function closeUnaskedApprovals(runId: string, pending: StoredInterrupt[]): Array<{ interruptId: string; answer: ResumeEntry; result: ToolMessage }> {
  return pending
    .filter((stored) => stored.runId === runId)
    .map((stored) => ({
      interruptId: stored.interrupt.id,
      answer: { interruptId: stored.interrupt.id, status: "cancelled" },
      result: {
        id: `${stored.toolCallId}-unasked`,
        role: "tool",
        toolCallId: stored.toolCallId,
        content: JSON.stringify({
          status: "cancelled",
          message: `The run that asked to approve ${stored.toolName} ended before anyone saw the question; it did not run.`,
        }),
      },
    }));
}
