import type { Message } from "@ag-ui/core";
import { TetherError, regeneratePoint, type Trigger } from "../../protocol/index.ts";
import { beginRunRefusals } from "../store/shared/index.ts";
import { describeDifference } from "./compare.ts";
import { UI_ONLY_ROLES } from "./reconcile.ts";

export interface Regeneration {
  /** The thread up to its last user message or tool result: the model's history. */
  history: Message[];
  /** What the store sets aside as the run begins: the words after that message. */
  supersede: { afterMessageId: string; count: number };
}

/**
 * Trigger `regenerate`: the thread's last answer is given again. What was done
 * stays done: the thread is kept up to its last user message or tool result
 * (an approved action, a browser's outcome, a click on a surface), and only
 * what the model said after it (its words, surfaces, and calls still waiting
 * for the browser) is set aside: kept for the earlier runs' records, gone from
 * the thread and from the model's history. The run adds nothing, and the user
 * message it names must still be the thread's last: a stale tab cannot replace
 * an answer the conversation has moved past.
 */
export function prepareRegeneration(options: {
  stored: Message[];
  trigger: Trigger;
  incoming: Message[];
  pendingInterrupts: number;
  /** Browser calls still waiting whose outcome the agent needs (follow-up tools): a browser may be carrying them out right now. */
  awaitedCalls: string[];
}): Regeneration {
  const { stored, trigger, incoming } = options;
  const messageId = trigger.messageId;
  if (!messageId) throw new TetherError("invalid_trigger", "A regenerate trigger names the user message to answer again in messageId.");
  const question = stored.findLast((message) => message.role === "user");
  if (!question || !stored.some((message) => message.id === messageId)) {
    throw new TetherError("history_conflict", `Message ${messageId} is not a user message of this thread, so there is no answer to it to give again.`);
  }
  if (question.id !== messageId) throw beginRunRefusals.answerMovedOn(messageId);
  if (options.pendingInterrupts > 0) {
    throw new TetherError("interrupt_pending", "This answer waits for an approval; answer it (or cancel it) before asking for another answer.");
  }
  // What a browser is doing stays done: its outcome must reach the thread, not find its call set aside.
  if (options.awaitedCalls.length > 0) {
    throw new TetherError(
      "tool_results_pending",
      `The answer is still being carried out in the browser (${options.awaitedCalls.join(", ")}); ask for another once its outcome is in, or send a new message.`,
      { details: { toolNames: options.awaitedCalls } },
    );
  }
  const { history, supersede } = lastWords(stored);
  const kept = new Map(history.map((message) => [message.id, message]));
  const setAside = new Set(stored.slice(history.length).map((message) => message.id));
  for (const message of incoming) {
    if (UI_ONLY_ROLES.has(message.role)) continue;
    if (setAside.has(message.id)) {
      throw new TetherError(
        "history_conflict",
        `Message ${message.id} belongs to the answer being replaced; send the thread up to message ${supersede.afterMessageId}.`,
      );
    }
    const known = kept.get(message.id);
    if (!known) throw new TetherError("invalid_trigger", `A regenerate run adds no messages (${message.id} is new); send a new message as a user-message run.`);
    const difference = describeDifference(known, message);
    if (difference) throw new TetherError("history_conflict", `Message ${message.id} differs from the stored thread (${difference}).`);
  }
  return { history, supersede };
}

/**
 * A stateless agent's (`client` mode) regenerate: the client cut the answer
 * from the history it sends, and the request is the reference. The store's
 * copy of the thread loses the same words, so a reload shows what the client
 * shows; when the store's copy has moved on (or never had the question),
 * there is nothing of it to set aside.
 */
export function storedWordsToSetAside(stored: Message[], trigger: Trigger): Regeneration["supersede"] | undefined {
  const question = stored.findLast((message) => message.role === "user");
  return question && question.id === trigger.messageId ? lastWords(stored).supersede : undefined;
}

/** The thread up to its last user message or tool result (with that step's surfaces), and what follows it. */
function lastWords(stored: Message[]): Regeneration {
  const cut = regeneratePoint(stored);
  return { history: stored.slice(0, cut + 1), supersede: { afterMessageId: stored[cut]!.id, count: stored.length - cut - 1 } };
}
