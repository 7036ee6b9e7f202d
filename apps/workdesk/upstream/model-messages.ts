import type { Message } from "@ag-ui/core";
import type { ModelMessage } from "ai";

/**
 * An AG-UI thread as the AI SDK's messages: the user's words, the assistant's
 * text and tool calls, and each tool's result under its call's name. System
 * and developer messages stay out: the agent has its own instructions.
 */
export function toModelMessages(messages: Message[]): ModelMessage[] {
  const names = new Map<string, string>();
  const converted: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      converted.push({ role: "user", content: text });
    } else if (message.role === "assistant") {
      const calls = (message.toolCalls ?? []).map((call) => {
        names.set(call.id, call.function.name);
        return { type: "tool-call" as const, toolCallId: call.id, toolName: call.function.name, input: parseArguments(call.function.arguments) };
      });
      const text = typeof message.content === "string" && message.content ? [{ type: "text" as const, text: message.content }] : [];
      if (text.length + calls.length > 0) converted.push({ role: "assistant", content: [...text, ...calls] });
    } else if (message.role === "tool") {
      converted.push({
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: message.toolCallId,
            toolName: names.get(message.toolCallId) ?? "unknown",
            output: { type: "text", value: typeof message.content === "string" ? message.content : JSON.stringify(message.content) },
          },
        ],
      });
    }
  }
  return converted;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text || "{}");
  } catch {
    return {};
  }
}
