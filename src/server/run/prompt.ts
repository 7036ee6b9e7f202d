import type { Context, Message } from "@ag-ui/core";
import type { LanguageModelV3Message, LanguageModelV3Prompt, LanguageModelV3ToolResultOutput } from "@ai-sdk/provider";
import { noResultOutcome } from "../../protocol/index.ts";
import type { AgentStateConfig } from "../state/index.ts";
import type { AgentState } from "../store/index.ts";

/** How the model is told about the shared state, above its JSON. */
export const STATE_HEADING = "Shared state (the page shows it and the person may edit it; change it with your tools):";

/** The most characters of state the prompt carries: a huge state must not eat the model's context window. */
export const STATE_PROMPT_LIMIT = 64 * 1024;

/**
 * Turns the thread's AG-UI history into the AI SDK's prompt: the agent's
 * instructions, the request's context and the shared state's block first,
 * then the conversation.
 *
 * Every tool call gets exactly one result, right after the message that made
 * it (providers refuse anything else), wherever the result sits in the
 * history; a call with no answer gets an explicit "no result was reported"
 * result rather than silently disappearing.
 */
export function toModelPrompt(instructions: string, context: Context[], messages: Message[], state?: string): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  const system = [instructions, ...context.map((item) => `${item.description}: ${item.value}`), state].filter(Boolean).join("\n\n");
  if (system) prompt.push({ role: "system", content: system });

  const results = new Map<string, unknown>();
  for (const message of messages) if (message.role === "tool" && !results.has(message.toolCallId)) results.set(message.toolCallId, message.content);

  for (const message of messages) {
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
        const calls = message.toolCalls ?? [];
        if (message.content) content.push({ type: "text", text: message.content });
        for (const call of calls)
          content.push({ type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: parseInput(call.function.arguments) });
        if (content.length > 0) prompt.push({ role: "assistant", content });
        if (calls.length > 0) {
          prompt.push({
            role: "tool",
            content: calls.map((call) => ({
              type: "tool-result" as const,
              toolCallId: call.id,
              toolName: call.function.name,
              output: results.has(call.id)
                ? toolOutput(results.get(call.id))
                : { type: "text" as const, value: JSON.stringify(noResultOutcome(call.function.name)) },
            })),
          });
        }
        break;
      }
      default:
        break; // tool results go with their call; activity and reasoning messages are UI state
    }
  }
  return prompt;
}

/**
 * The state's block of the system prompt: the agent's own words (`prompt`), or
 * the state as JSON under a heading; none with `prompt: false`, or when an
 * agent that declares no state has none. Cut at STATE_PROMPT_LIMIT, saying so.
 */
export function statePrompt(state: Readonly<AgentState>, declared: AgentStateConfig | undefined): string | undefined {
  if (declared?.prompt === false || (!declared && Object.keys(state).length === 0)) return undefined;
  const block = declared?.prompt ? declared.prompt(state) : `${STATE_HEADING}\n${JSON.stringify(state)}`;
  if (block.length <= STATE_PROMPT_LIMIT) return block;
  return `${block.slice(0, STATE_PROMPT_LIMIT)}\n[The state's block is ${block.length} characters; only its first ${STATE_PROMPT_LIMIT} are shown.]`;
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
