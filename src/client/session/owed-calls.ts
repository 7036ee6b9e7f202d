import type { StoredThread } from "./load-thread.ts";

/**
 * The browser calls a reloaded tab still owes outcomes for: the thread's
 * pending calls, from runs this tab started. A server that keeps no pending
 * calls (an agent in `client` history mode: the client owns the history)
 * names them only in its last run's end, `pendingToolCallIds`; a call whose
 * result is already in the thread is not owed.
 */
export function owedCalls(thread: StoredThread, owns: (runId: string) => boolean): Array<{ toolCallId: string; runId: string }> {
  if (thread.pendingToolCalls.length > 0) return thread.pendingToolCalls.filter((call) => owns(call.runId));
  const last = thread.runs?.at(-1);
  if (!last || last.status !== "finished" || !owns(last.runId)) return [];
  const answered = new Set(thread.messages.flatMap((message) => (message.role === "tool" ? [message.toolCallId] : [])));
  return (last.outcome?.pendingToolCallIds ?? []).filter((toolCallId) => !answered.has(toolCallId)).map((toolCallId) => ({ toolCallId, runId: last.runId }));
}
