import type { Message } from "@ag-ui/core";
import type { ResumeCheck } from "../approvals/index.ts";
import type { RunStore } from "../store/index.ts";

/**
 * The run a request answers, for one whose client did not name it (a plain
 * AG-UI client sends no `forwardedProps.tether.trigger`): the run that asked
 * the interrupts it answers, else the run that made the browser call its
 * newest tool message answers (a follow-up's outcome, or a render-only call's
 * carried with the next user message). Both come from this thread's store, so
 * the link is the server's own knowledge, not the client's word.
 */
export async function answeredRunId(options: {
  store: RunStore;
  threadId: string;
  answers: ResumeCheck["answers"];
  /** The messages the run adds, in order. */
  added: Message[];
  /** The history the run starts from, where the answered calls were made. */
  history: Message[];
}): Promise<string | undefined> {
  // An interrupt rebuilt from its signed id alone (a stateless agent's, after a restart) names no run.
  const asked = options.answers.find((answer) => answer.stored.runId !== "");
  if (asked) return asked.stored.runId;
  const last = options.added.findLast((message) => message.role === "tool");
  if (last?.role !== "tool") return undefined;
  const caller = options.history.find((message) => message.role === "assistant" && message.toolCalls?.some((call) => call.id === last.toolCallId));
  return caller ? options.store.getMessageRun(options.threadId, caller.id) : undefined;
}
