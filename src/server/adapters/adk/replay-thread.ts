import { createEvent, type Event } from "@google/adk";
import type { Message, ToolMessage } from "@ag-ui/core";
import { noResultOutcome } from "../../../protocol/index.ts";
import type { EngineConfirmation } from "../../agent/index.ts";
import { confirmationExchange, parseArguments } from "./confirmation-events.ts";
import { FRAMEWORK_CALLS } from "./framework-calls.ts";

type Content = NonNullable<Event["content"]>;
type Part = NonNullable<Content["parts"]>[number];

/**
 * Tether's thread as a fresh ADK session: the events before this step, and the step's new message.
 * The thread is the source of truth; nothing of an earlier step's session is needed, so a restart
 * loses nothing. Every replayed call has its result (one the thread left open is answered "no result
 * was reported"), each result is paired with its call by id, and the agent's turns are authored by
 * the agent (ADK rewrites anyone else's turns as "for context" text, and binds confirmations only to
 * its own calls).
 */
export function replayThread(
  thread: Message[],
  confirmations: EngineConfirmation[],
  agentName: string,
): { events: Event[]; newMessage: Content; lateText?: string } {
  const messages = withOwedResults(thread, new Set(confirmations.map(({ stored }) => stored.toolCallId)));
  const names = new Map<string, string>();
  const framework = new Set<string>();
  const lastAssistant = messages.findLastIndex((message) => message.role === "assistant");
  // The new input: what came after the agent last spoke (a person's message, or the results of its calls).
  const trailing = lastAssistant < 0 ? messages.findLastIndex((message) => message.role === "user") : lastAssistant + 1;
  const events: Event[] = [];
  const event = (author: string, content: Content) => events.push(createEvent({ invocationId: "tether", author, content }));

  const toContent = (message: Message): { author: string; content: Content } | undefined => {
    switch (message.role) {
      case "user": {
        const text = userText(message.content);
        return text ? { author: "user", content: { role: "user", parts: [{ text }] } } : undefined;
      }
      case "assistant": {
        const parts: Part[] = message.content ? [{ text: message.content }] : [];
        for (const call of message.toolCalls ?? []) {
          // Tether never stores ADK's own request as a call: this one was written by a client (history
          // "client"). Replayed as the agent's, its answer would be ADK's go-ahead for a call nobody approved.
          if (FRAMEWORK_CALLS.has(call.function.name)) {
            framework.add(call.id);
            continue;
          }
          names.set(call.id, call.function.name);
          parts.push({ functionCall: { id: call.id, name: call.function.name, args: parseArguments(call.function.arguments) } });
        }
        return parts.length > 0 ? { author: agentName, content: { role: "model", parts } } : undefined;
      }
      case "tool":
        if (framework.has(message.toolCallId)) return undefined;
        return {
          author: agentName,
          content: { role: "user", parts: [toResponse(message.toolCallId, names.get(message.toolCallId) ?? "unknown", userText(message.content))] },
        };
      default:
        // Generated surfaces, reasoning and system text are not offered to an ADK agent.
        return undefined;
    }
  };

  for (const message of messages.slice(0, Math.max(trailing, 0))) {
    const replayed = toContent(message);
    if (replayed) event(replayed.author, replayed.content);
  }
  const input = messages
    .slice(Math.max(trailing, 0))
    .map(toContent)
    .filter((item) => item !== undefined);
  if (confirmations.length > 0) {
    // The answers must be the latest user event, alone: results beside them would be dropped with them,
    // and a person's words before them too (ADK drops what lies between a call and its result): those
    // go to the model after the approved call's result.
    const words = input.filter((item) => item.author === "user");
    for (const item of input) if (item.author !== "user") event(item.author, item.content);
    const exchange = confirmationExchange(confirmations, agentName);
    const lateText = words.flatMap((item) => (item.content.parts ?? []).map((part) => part.text ?? "")).join("\n\n");
    return { events: [...events, ...exchange.events], newMessage: exchange.newMessage, ...(lateText ? { lateText } : {}) };
  }
  const parts = input.flatMap((item) => item.content.parts ?? []);
  if (parts.length === 0) throw new Error("The thread has nothing new for the agent to answer.");
  return { events, newMessage: { role: "user", parts } };
}

/**
 * The thread with "no result was reported" after each call that has no result (a client's history may
 * hold one; the server's thread never does), as the model's prompt has it: ADK would send the call
 * alone, which a provider refuses. A held call whose confirmation this step delivers gets its result
 * from ADK.
 */
function withOwedResults(messages: Message[], confirming: ReadonlySet<string>): Message[] {
  const answered = new Set(messages.flatMap((message) => (message.role === "tool" ? [message.toolCallId] : [])));
  const out: Message[] = [];
  const owed: ToolMessage[] = [];
  for (const message of messages) {
    // Owed results go after the results already there, before whatever comes next.
    if (owed.length > 0 && message.role !== "tool") out.push(...owed.splice(0));
    out.push(message);
    if (message.role !== "assistant") continue;
    for (const call of message.toolCalls ?? []) {
      if (answered.has(call.id) || confirming.has(call.id)) continue;
      owed.push({ id: `${call.id}-no-result`, role: "tool", toolCallId: call.id, content: JSON.stringify(noResultOutcome(call.function.name)) });
    }
  }
  return [...out, ...owed];
}

/** A result as ADK's function response: an object as it is, anything else as `{ result }`. */
function toResponse(id: string, name: string, content: string): Part {
  let response: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(content);
    response = value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };
  } catch {
    response = { result: content };
  }
  return { functionResponse: { id, name, response } };
}

function userText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((part) =>
      part && typeof part === "object" && (part as { type?: unknown }).type === "text" ? [String((part as { text?: unknown }).text ?? "")] : [],
    )
    .join("\n");
}
