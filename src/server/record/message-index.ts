import type { Message } from "@ag-ui/core";

/** A thread's messages looked up by id, tool results by the call they answer, and tool names by call id. */
export interface MessageIndex {
  byId: Map<string, Message>;
  results: Map<string, Message>;
  toolNames: Map<string, string>;
}

export function indexMessages(...lists: Message[][]): MessageIndex {
  const index: MessageIndex = { byId: new Map(), results: new Map(), toolNames: new Map() };
  for (const messages of lists) {
    for (const message of messages) {
      index.byId.set(message.id, message);
      if (message.role === "tool") index.results.set(message.toolCallId, message);
      if (message.role === "assistant") for (const call of message.toolCalls ?? []) index.toolNames.set(call.id, call.function.name);
    }
  }
  return index;
}
