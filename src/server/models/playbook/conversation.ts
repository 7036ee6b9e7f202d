import type { LanguageModelV3Prompt } from "@ai-sdk/provider";

/** A tool result the playbook reads, its output parsed back from JSON when it is JSON. */
export interface PlaybookResult {
  toolCallId: string;
  toolName: string;
  /** The arguments the call was made with. */
  input: unknown;
  output: unknown;
  isError: boolean;
}

/** A tool as offered to the model in this call. */
export interface PlaybookTool {
  name: string;
  description: string;
  inputSchema: unknown;
}

/** The parts of a prompt a playbook decides on. */
export interface PlaybookConversation {
  /** The latest user message, as text. */
  userText: string;
  /** Every user message, as text, oldest first (the latest last): what a chat with memory answers from. */
  userTexts: string[];
  /** Tool results that arrived after the model's last words, oldest first; empty on a new user message. */
  results: PlaybookResult[];
  /** Every tool result since the latest user message, oldest first (the lookup before a navigation, say). */
  sinceUser: PlaybookResult[];
  /** Every tool result in the conversation, oldest first (what was offered two turns ago). */
  all: PlaybookResult[];
  /** The system text: the agent's instructions and the request's context. */
  system: string;
  /** Tool names offered in this call. */
  tools: string[];
  /** The tools offered, as the model sees them: a playbook reads what a description says ("offer at most three"). */
  offered: PlaybookTool[];
  /** How many assistant turns followed the latest user message (a guard against loops). */
  turnsSinceUser: number;
}

export function readConversation(prompt: LanguageModelV3Prompt, offered: PlaybookTool[]): PlaybookConversation {
  let userText = "";
  const userTexts: string[] = [];
  let results: PlaybookResult[] = [];
  let sinceUser: PlaybookResult[] = [];
  const all: PlaybookResult[] = [];
  let system = "";
  let turnsSinceUser = 0;
  const inputs = new Map<string, unknown>();
  for (const message of prompt) {
    if (message.role === "system") {
      system = [system, message.content].filter(Boolean).join("\n\n");
    } else if (message.role === "user") {
      userText = message.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      userTexts.push(userText);
      results = [];
      sinceUser = [];
      turnsSinceUser = 0;
    } else if (message.role === "assistant" && isUiAction(message.content)) {
      // A click on a generated surface is the person's turn, as a message is (the server records it as this call).
      results = [];
      sinceUser = [];
      turnsSinceUser = 0;
      for (const part of message.content) if (part.type === "tool-call") inputs.set(part.toolCallId, part.input);
    } else if (message.role === "assistant") {
      results = [];
      turnsSinceUser++;
      for (const part of message.content) if (part.type === "tool-call") inputs.set(part.toolCallId, part.input);
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const { output } = part;
        const raw = output.type === "text" || output.type === "error-text" ? output.value : "value" in output ? output.value : undefined;
        const result = {
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: inputs.get(part.toolCallId),
          output: parseMaybe(raw),
          isError: output.type.startsWith("error"),
        };
        results.push(result);
        sinceUser.push(result);
        all.push(result);
      }
    }
  }
  return { userText, userTexts, results, sinceUser, all, system, tools: offered.map((tool) => tool.name), offered, turnsSinceUser };
}

function parseMaybe(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The tool call a UI action is recorded as (see genui/surfaces/ui-action.ts). */
const UI_ACTION_TOOL = "log_a2ui_event";

function isUiAction(content: Extract<LanguageModelV3Prompt[number], { role: "assistant" }>["content"]): boolean {
  const calls = content.filter((part) => part.type === "tool-call");
  return calls.length > 0 && calls.every((part) => part.type === "tool-call" && part.toolName === UI_ACTION_TOOL);
}
