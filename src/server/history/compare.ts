import type { Message, ToolCall, ToolMessage } from "@ag-ui/core";

/**
 * What differs between a stored message and the client's copy, or undefined
 * when they say the same thing to the model. Only what reaches the model is
 * compared: role, content, tool calls and the answered call id. Metadata and
 * display names are the client's business.
 */
export function describeDifference(stored: Message, sent: Message): string | undefined {
  if (stored.role !== sent.role) return `role ${sent.role}, stored ${stored.role}`;
  if (JSON.stringify(contentOf(stored)) !== JSON.stringify(contentOf(sent))) return "content changed";
  if (stored.role === "tool" && sent.role === "tool" && stored.toolCallId !== sent.toolCallId) return "answers another tool call";
  if (stored.role === "assistant" && sent.role === "assistant") {
    const storedCalls = stored.toolCalls ?? [];
    const sentCalls = sent.toolCalls ?? [];
    if (storedCalls.length !== sentCalls.length) return `${sentCalls.length} tool calls, stored ${storedCalls.length}`;
    for (let index = 0; index < storedCalls.length; index++) {
      const difference = describeCallDifference(storedCalls[index]!, sentCalls[index]!);
      if (difference) return difference;
    }
  }
  return undefined;
}

/** Whether two results of one call say the same: the same outcome, whatever id each message has. */
export function sameToolContent(a: ToolMessage, b: ToolMessage): boolean {
  return JSON.stringify(a.content) === JSON.stringify(b.content);
}

function describeCallDifference(stored: ToolCall, sent: ToolCall): string | undefined {
  if (stored.id !== sent.id) return `tool call ${sent.id}, stored ${stored.id}`;
  if (stored.function.name !== sent.function.name) return `tool call ${sent.id} names ${sent.function.name}`;
  if (stored.function.arguments !== sent.function.arguments) return `tool call ${sent.id} has other arguments`;
  return undefined;
}

// An assistant message with only tool calls may carry no content or an empty string; both mean none.
function contentOf(message: Message): unknown {
  const content = (message as { content?: unknown }).content;
  return content === "" ? undefined : content;
}
