import type { Message } from "@ag-ui/core";
import { TetherError, type Trigger } from "../../protocol/index.ts";
import { beginRunRefusals } from "../store/begin-run-refusals.ts";
import { describeDifference } from "./compare.ts";

export interface Regeneration {
  /** The thread up to and including the user message answered again: the model's history. */
  history: Message[];
  /** What the store sets aside as the run begins: the answer after that message. */
  supersede: { afterMessageId: string; count: number };
}

// Activity and reasoning messages are the client's view of the UI, not history it vouches for.
const UI_ONLY_ROLES = new Set(["activity", "reasoning"]);

/**
 * `server` mode, trigger `regenerate`: the thread's last user message is
 * answered again. Everything after it (the answer, its tool calls and results,
 * its surfaces) is set aside: kept for the earlier runs' records, gone from the
 * thread and from the model's history. Nothing may be added, and the message
 * must still be the last one the user sent: a stale tab cannot replace an
 * answer the conversation has moved past.
 */
export function prepareRegeneration(options: { stored: Message[]; trigger: Trigger; incoming: Message[]; pendingInterrupts: number }): Regeneration {
  const { stored, trigger, incoming } = options;
  const messageId = trigger.messageId;
  if (!messageId) throw new TetherError("invalid_trigger", "A regenerate trigger names the user message to answer again in messageId.");
  const cut = stored.findLastIndex((message) => message.role === "user");
  if (cut === -1 || !stored.some((message) => message.id === messageId)) {
    throw new TetherError("history_conflict", `Message ${messageId} is not a user message of this thread, so there is no answer to it to give again.`);
  }
  if (stored[cut]!.id !== messageId) throw beginRunRefusals.answerMovedOn(messageId);
  if (options.pendingInterrupts > 0) {
    throw new TetherError("interrupt_pending", "This answer waits for an approval; answer it (or cancel it) before asking for another answer.");
  }
  const history = stored.slice(0, cut + 1);
  const kept = new Map(history.map((message) => [message.id, message]));
  const setAside = new Set(stored.slice(cut + 1).map((message) => message.id));
  for (const message of incoming) {
    if (UI_ONLY_ROLES.has(message.role)) continue;
    if (setAside.has(message.id)) {
      throw new TetherError("history_conflict", `Message ${message.id} belongs to the answer being replaced; send the thread up to message ${messageId}.`);
    }
    const known = kept.get(message.id);
    if (!known) throw new TetherError("invalid_trigger", `A regenerate run adds no messages (${message.id} is new); send a new message as a user-message run.`);
    const difference = describeDifference(known, message);
    if (difference) throw new TetherError("history_conflict", `Message ${message.id} differs from the stored thread (${difference}).`);
  }
  return { history, supersede: { afterMessageId: messageId, count: setAside.size } };
}
