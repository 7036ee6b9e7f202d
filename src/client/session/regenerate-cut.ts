import type { Message } from "@ag-ui/core";
import { regeneratePoint } from "../../protocol/index.ts";

export interface RegenerateCut {
  /** The conversation Regenerate keeps and sends: up to the last user message or tool result, with that step's surfaces. */
  keep: Message[];
  /** The user message whose answer is given again (the trigger's `messageId`). */
  questionId: string;
  /** Where the Regenerate button goes: the answer whose words are replaced, or the question itself when it has none (its run failed or was stopped). */
  answerId: string;
}

/**
 * Where Regenerate cuts the conversation, as the server does: what was done
 * (a tool's result, an approved action, a click) stays, and the words the
 * model said after it are given again. A render-only tool's result this page
 * holds for the next run is not the server's yet: its call is set aside with
 * the words. Undefined when the answer ended with what was done (nothing to say again yet).
 */
export function regenerateCut(messages: Message[], heldResults: ReadonlySet<string>): RegenerateCut | undefined {
  const thread = messages.filter((message) => !heldResults.has(message.id));
  const question = thread.findLast((message) => message.role === "user");
  if (!question) return undefined;
  const cut = regeneratePoint(thread);
  const keep = thread.slice(0, cut + 1);
  const answer = thread.slice(cut + 1).findLast((message) => message.role === "assistant" && Boolean(message.content));
  if (answer) return { keep, questionId: question.id, answerId: answer.id };
  // A question left without an answer (its run failed, or was stopped before any words) is asked again.
  return thread.at(-1) === question ? { keep, questionId: question.id, answerId: question.id } : undefined;
}
