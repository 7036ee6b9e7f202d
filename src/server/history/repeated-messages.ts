import type { Message, ToolMessage } from "@ag-ui/core";
import { describeDifference, sameToolContent } from "./compare.ts";
import { UI_ONLY_ROLES } from "./reconcile.ts";

/** What a request's messages repeat of a thread they add nothing to (`repeatedMessages`). */
export interface RepeatedMessages {
  /** The stored id of the browser outcome the request ends with, if it ends with one. */
  newestResultId?: string;
}

/**
 * In `server` mode, whether a request's messages add nothing to the stored
 * thread: each is a stored message as stored, or a browser outcome the thread
 * already holds for that call with the same content under another id (a
 * retry that named it anew). Undefined as soon as one adds anything (a user
 * message, a new or different outcome). Order is not checked: a request that
 * adds nothing starts nothing, so there is nothing for order to break.
 *
 * The run that stored the outcome the request ends with is the run such a
 * request repeats (two tabs posting the same outcome, a retry).
 */
export function repeatedMessages(stored: Message[], incoming: Message[]): RepeatedMessages | undefined {
  const byId = new Map(stored.map((message) => [message.id, message]));
  const results = new Map<string, ToolMessage>();
  for (const message of stored) if (message.role === "tool") results.set(message.toolCallId, message);
  let newestResultId: string | undefined;
  for (const message of incoming) {
    if (UI_ONLY_ROLES.has(message.role)) continue;
    const known = byId.get(message.id) ?? (message.role === "tool" ? results.get(message.toolCallId) : undefined);
    if (!known) return undefined;
    if (known.id === message.id ? describeDifference(known, message) : !sameToolContent(known as ToolMessage, message as ToolMessage)) return undefined;
    newestResultId = known.role === "tool" ? known.id : undefined;
  }
  return newestResultId ? { newestResultId } : {};
}
