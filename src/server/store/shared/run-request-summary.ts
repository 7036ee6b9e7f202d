import type { Message, ResumeEntry } from "@ag-ui/core";

/**
 * What a run's request shows of why it started, kept beside the run so a
 * thread's chain can say it without reading the request (in client mode the
 * whole history). Written as the run begins; absent on runs stored before.
 */
export interface RunRequestSummary {
  /** The role of the request's last message (UI-only messages left out). */
  lastRole?: string;
  /** The request's last user message. */
  lastUserMessageId?: string;
  /** The tool calls the request's last messages answer. */
  trailingToolCallIds: string[];
  /** The request's answers to approvals. */
  resume: Array<{ interruptId: string; status: ResumeEntry["status"]; approved?: boolean }>;
}

// The client's view of the UI, never part of a model's history.
const UI_ONLY_ROLES = new Set(["activity", "reasoning"]);

/** Summarizes a request's history and answers (its messages as sent, in either history mode). */
export function summarizeRunRequest(messages: Message[], resume: ResumeEntry[] = []): RunRequestSummary {
  const history = messages.filter((message) => !UI_ONLY_ROLES.has(message.role));
  const trailingToolCallIds: string[] = [];
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index]!;
    if (message.role !== "tool") break;
    trailingToolCallIds.unshift(message.toolCallId);
  }
  const lastUser = history.findLast((message) => message.role === "user");
  const lastRole = history.at(-1)?.role;
  return {
    ...(lastRole ? { lastRole } : {}),
    ...(lastUser ? { lastUserMessageId: lastUser.id } : {}),
    trailingToolCallIds,
    resume: resume.map((entry) => {
      const approved = (entry.payload as { approved?: unknown } | undefined)?.approved;
      return { interruptId: entry.interruptId, status: entry.status, ...(typeof approved === "boolean" ? { approved } : {}) };
    }),
  };
}
