import type { AssistantMessage, Message, ToolMessage } from "@ag-ui/core";
import type { StepResult } from "./model-step.ts";
import type { ToolCall } from "../tools/index.ts";

type Entry = { kind: "assistant"; id: string; text: string[]; calls: ToolCall[] } | { kind: "tool"; message: ToolMessage };

export interface StepMessages {
  /** The id of the assistant message new text and calls join, opening one if none is open. */
  openAssistant(): string;
  appendText(delta: string): void;
  /** Adds a call to the open assistant message (opening one if none is). */
  addCall(call: ToolCall): void;
  /**
   * Puts a result right after its call's message and the results already
   * there, and closes that message: what the agent says next is a new one.
   */
  addResult(result: ToolMessage): void;
  /** The messages, each assistant message followed by its calls' results. */
  all(): Message[];
  /** The last assistant message, when there is one. */
  lastAssistant(): AssistantMessage | undefined;
}

/**
 * The messages of one upstream run, in the order a model provider accepts
 * them on the next turn, whatever the upstream's own message ids say (one id
 * for a whole answer, a new one per text part): a new assistant message only
 * where a tool result came between, each result right after its call.
 */
export function createStepMessages(newMessageId: () => string): StepMessages {
  const entries: Entry[] = [];
  let open: Extract<Entry, { kind: "assistant" }> | undefined;

  const ensureOpen = () => {
    if (!open) {
      open = { kind: "assistant", id: newMessageId(), text: [], calls: [] };
      entries.push(open);
    }
    return open;
  };
  const toMessage = (entry: Extract<Entry, { kind: "assistant" }>): AssistantMessage => {
    const content = entry.text.join("");
    return {
      id: entry.id,
      role: "assistant",
      ...(content ? { content } : {}),
      ...(entry.calls.length > 0
        ? {
            toolCalls: entry.calls.map((call) => ({
              id: call.toolCallId,
              type: "function" as const,
              function: { name: call.toolName, arguments: call.argumentsText },
            })),
          }
        : {}),
    };
  };

  return {
    openAssistant: () => ensureOpen().id,
    appendText(delta) {
      ensureOpen().text.push(delta);
    },
    addCall(call) {
      ensureOpen().calls.push(call);
    },
    addResult(result) {
      const parent = entries.findIndex((entry) => entry.kind === "assistant" && entry.calls.some((call) => call.toolCallId === result.toolCallId));
      let at = parent < 0 ? entries.length : parent + 1;
      while (at < entries.length && entries[at]!.kind === "tool") at++;
      entries.splice(at, 0, { kind: "tool", message: result });
      if (parent >= 0 && entries[parent] === open) open = undefined;
    },
    all: () => entries.map((entry) => (entry.kind === "tool" ? entry.message : toMessage(entry))),
    lastAssistant() {
      for (let index = entries.length - 1; index >= 0; index--) {
        const entry = entries[index]!;
        if (entry.kind === "assistant") return toMessage(entry);
      }
      return undefined;
    },
  };
}

/** `messages` with each result put right after its call's message and the results already there (the rest at the end). */
export function placeResults(messages: Message[], results: ToolMessage[]): Message[] {
  const placed = [...messages];
  for (const result of results) {
    const parent = placed.findIndex((message) => message.role === "assistant" && (message.toolCalls ?? []).some((call) => call.id === result.toolCallId));
    let at = parent < 0 ? placed.length : parent + 1;
    while (at < placed.length && placed[at]!.role === "tool") at++;
    placed.splice(at, 0, result);
  }
  return placed;
}

/** Every message a step produced: an upstream's several, or the model's one. */
export function produced(result: StepResult): Message[] {
  return result.produced ?? (result.message ? [result.message] : []);
}
