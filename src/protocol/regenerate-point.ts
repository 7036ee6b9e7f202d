import type { Message } from "@ag-ui/core";

/**
 * Where Regenerate cuts a conversation, on the server and in the browser
 * alike: after its last user message or tool result, with that step's
 * surfaces. What comes before was said or done and stays; what follows (the
 * words the model said after it) is given again. -1 when there is neither.
 */
export function regeneratePoint(messages: Message[]): number {
  let cut = messages.findLastIndex((message) => message.role === "user" || message.role === "tool");
  // A step's surfaces come after its results: they belong to what was done, not to the words after it.
  while (cut >= 0 && messages[cut + 1]?.role === "activity") cut++;
  return cut;
}
