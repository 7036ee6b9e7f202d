import type { Context, Message } from "@ag-ui/core";
import type { LanguageModelV3Message, LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import { noResultOutcome } from "../../protocol/index.ts";

/**
 * Turns the thread's AG-UI history into the AI SDK's prompt: the agent's
 * instructions and the request's context first, then the conversation.
 *
 * Every tool call in the prompt gets exactly one result (providers refuse
 * anything else): a call with no answer gets an explicit "no result was
 * reported" result rather than silently disappearing.
 */
const MODEL_ROLES = new Set(["system", "developer", "user", "assistant"]);

export function toModelPrompt(instructions: string, context: Context[], messages: Message[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  const system = [instructions, ...context.map((item) => `${item.description}: ${item.value}`)].filter(Boolean).join("\n\n");
  if (system) prompt.push({ role: "system", content: system });

  const names = new Map<string, string>();
  let open: string[] = [];
  const closeOpenCalls = () => {
    if (open.length === 0) return;
    prompt.push({
      role: "tool",
      content: open.map((toolCallId) => ({
        type: "tool-result" as const,
        toolCallId,
        toolName: names.get(toolCallId) ?? "unknown",
        output: { type: "text", value: JSON.stringify(noResultOutcome(names.get(toolCallId) ?? "this tool")) },
      })),
    });
    open = [];
  };

  for (const message of messages) {
    // Only a model-visible message ends the answers to the calls before it; UI-only messages are skipped.
    if (message.role !== "tool" && MODEL_ROLES.has(message.role)) closeOpenCalls();
    switch (message.role) {
      case "system":
      case "developer":
        prompt.push({ role: "system", content: message.content });
        break;
      case "user":
        prompt.push({ role: "user", content: [{ type: "text", text: userText(message.content) }] });
        break;
      case "assistant": {
        const content: Extract<LanguageModelV3Message, { role: "assistant" }>["content"] = [];
        if (message.content) content.push({ type: "text", text: message.content });
        for (const call of message.toolCalls ?? []) {
          names.set(call.id, call.function.name);
          open.push(call.id);
          content.push({ type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: parseInput(call.function.arguments) });
        }
        if (content.length > 0) prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        if (!open.includes(message.toolCallId)) break; // an answer to nothing would make the prompt invalid
        open = open.filter((id) => id !== message.toolCallId);
        const part = {
          type: "tool-result" as const,
          toolCallId: message.toolCallId,
          toolName: names.get(message.toolCallId) ?? "unknown",
          output: toolOutput(message.content),
        };
        const last = prompt.at(-1);
        if (last?.role === "tool") last.content.push(part);
        else prompt.push({ role: "tool", content: [part] });
        break;
      }
      default:
        break; // activity and reasoning messages are UI state
    }
  }
  closeOpenCalls();
  return prompt;
}

function userText(content: Message["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part.type === "text" ? part.text : `[${part.type} attachment omitted]`)).join("\n");
}

function parseInput(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return { invalidArguments: text };
  }
}

/** Results shaped `{ error: { code, message } }` are errors, so providers can mark them as such. */
function toolOutput(content: unknown): LanguageModelV3ToolResultOutput {
  const text = typeof content === "string" ? content : JSON.stringify(content);
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && "error" in value && typeof value.error === "object") return { type: "error-json", value };
    return { type: "json", value };
  } catch {
    return { type: "text", value: text };
  }
}
