import type { Message, ToolMessage } from "@ag-ui/core";
import { TetherError, noResultOutcome } from "../../protocol/index.ts";
import type { PendingToolCall } from "../store/index.ts";
import { describeDifference, sameToolContent } from "./compare.ts";

export interface ReconciledHistory {
  /** Messages this run adds to the thread, in order. */
  added: Message[];
  /** Pending browser calls this run answers or closes. */
  resolvedToolCallIds: string[];
  /** The whole history the model sees. */
  history: Message[];
  /** The server added messages the client does not have (closed calls), so it should resend a snapshot. */
  synthesized: boolean;
  /** Stored results the request repeated word for word (a retry): their message ids. */
  repeatedResults: string[];
  /**
   * Set when the request only repeats stored results while later calls wait for theirs: a retry of
   * a run that has ended, answered with that run's events. Thrown if the request is not one after all.
   */
  waiting?: TetherError;
}

// Activity and reasoning messages are the client's view of the UI, not model history.
export const UI_ONLY_ROLES = new Set(["activity", "reasoning"]);

/**
 * `server` mode: the stored thread is the reference. Known messages must match
 * it exactly and in order; only user messages and answers to pending browser
 * calls may be added. A repeated answer with the same content is a no-op; a
 * different one is a conflict.
 */
export function reconcileServerHistory(options: {
  stored: Message[];
  pending: PendingToolCall[];
  incoming: Message[];
  newMessageId: () => string;
}): ReconciledHistory {
  const { stored, pending, incoming } = options;
  const storedIndex = new Map(stored.map((message, index) => [message.id, index]));
  // The results of one assistant message's calls form a block whose order carries no meaning
  // (clients place them as they arrive): a result is ordered by the message it answers. The thread
  // keeps a step's surfaces after its results, and a browser call's result may come in a later run,
  // after them: a surface takes the order of what precedes it, so it never splits a block.
  const orderOf: number[] = [];
  stored.forEach((message, index) => orderOf.push((message.role === "tool" || UI_ONLY_ROLES.has(message.role)) && index > 0 ? orderOf[index - 1]! : index));
  const storedResults = new Map<string, ToolMessage>();
  for (const message of stored) if (message.role === "tool") storedResults.set(message.toolCallId, message);
  const waiting = new Map(pending.map((call) => [call.toolCallId, call]));

  const added: Message[] = [];
  const addedIds = new Set<string>();
  const repeatedResults: string[] = [];
  const answered = new Map<string, ToolMessage>();
  let lastKnown = -1;
  for (const message of incoming) {
    if (UI_ONLY_ROLES.has(message.role)) continue;
    const index = storedIndex.get(message.id);
    if (index !== undefined) {
      if (added.length > 0) conflict(`Message ${message.id} is already in the thread, but it comes after new messages; new messages go last.`);
      const order = orderOf[index]!;
      if (order < lastKnown || (order === lastKnown && message.role !== "tool")) {
        conflict(`Message ${message.id} is out of order compared with the stored thread.`);
      }
      const difference = describeDifference(stored[index]!, message);
      if (difference) conflict(`Message ${message.id} differs from the stored thread (${difference}).`);
      lastKnown = order;
      continue;
    }
    if (addedIds.has(message.id)) conflict(`Message id ${message.id} appears twice in this request.`);
    switch (message.role) {
      case "user":
        added.push(message);
        addedIds.add(message.id);
        break;
      case "tool": {
        const earlier = answered.get(message.toolCallId) ?? storedResults.get(message.toolCallId);
        if (earlier) {
          if (sameToolContent(earlier, message)) {
            if (!answered.has(message.toolCallId)) repeatedResults.push(earlier.id); // a retried answer: already recorded
            continue;
          }
          throw new TetherError("tool_result_conflict", `Tool call ${message.toolCallId} already has a different result; a call is answered once.`);
        }
        if (!waiting.has(message.toolCallId)) {
          throw new TetherError("tool_result_unknown", `Tool call ${message.toolCallId} is not a pending browser call of this thread.`);
        }
        answered.set(message.toolCallId, message);
        added.push(message);
        addedIds.add(message.id);
        break;
      }
      case "assistant":
        conflict(`Assistant message ${message.id} was not produced by this server; assistant messages cannot be sent.`);
        break;
      default:
        conflict(`A new ${message.role} message (${message.id}) cannot be added; instructions belong to the server. Send context instead.`);
    }
  }

  const unanswered = pending.filter((call) => !answered.has(call.toolCallId));
  const firstUser = added.findIndex((message) => message.role === "user");
  if (unanswered.length > 0 && firstUser === -1) {
    const waiting = new TetherError(
      "tool_results_pending",
      `Browser tool calls ${unanswered.map((call) => call.toolCallId).join(", ")} are waiting for their outcome; answer them or send a new user message.`,
      { details: { toolCallIds: unanswered.map((call) => call.toolCallId) } },
    );
    // Nothing new: perhaps an earlier call's outcome again, after the run it started left new calls (the caller knows).
    if (added.length === 0) return { added, resolvedToolCallIds: [], history: stored, synthesized: false, repeatedResults, waiting };
    throw waiting;
  }
  // A user who moves on leaves the calls unanswered: close them so the model's history stays valid.
  const closed = unanswered.map((call) => closeUnanswered(call, options.newMessageId()));
  if (closed.length > 0) added.splice(firstUser, 0, ...closed);
  return {
    added,
    resolvedToolCallIds: pending.map((call) => call.toolCallId),
    history: [...stored, ...added],
    synthesized: closed.length > 0,
    repeatedResults,
  };
}

/**
 * `client` mode: the request's history is used as sent, minus UI-only
 * messages. Tool results must answer a call made earlier in that history.
 */
export function prepareClientHistory(incoming: Message[]): ReconciledHistory {
  const history = incoming.filter((message) => !UI_ONLY_ROLES.has(message.role));
  const calls = new Set<string>();
  const answered = new Set<string>();
  const ids = new Set<string>();
  for (const message of history) {
    if (ids.has(message.id)) conflict(`Message id ${message.id} appears twice in this request.`);
    ids.add(message.id);
    // The client owns the conversation, not the agent's instructions: the same rule as in server mode.
    if (message.role === "system" || message.role === "developer") {
      conflict(`A ${message.role} message (${message.id}) cannot be sent; instructions belong to the server. Send context instead.`);
    }
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) calls.add(call.id);
    if (message.role === "tool" && !calls.has(message.toolCallId)) {
      throw new TetherError("tool_result_unknown", `Tool message ${message.id} answers ${message.toolCallId}, which no earlier assistant message called.`);
    }
    if (message.role === "tool" && answered.has(message.toolCallId)) {
      throw new TetherError("tool_result_conflict", `Tool call ${message.toolCallId} is answered twice in this request; a call is answered once.`);
    }
    if (message.role === "tool") answered.add(message.toolCallId);
  }
  return { added: history, resolvedToolCallIds: [], history, synthesized: false, repeatedResults: [] };
}

function closeUnanswered(call: PendingToolCall, id: string): ToolMessage {
  return { id, role: "tool", toolCallId: call.toolCallId, content: JSON.stringify(noResultOutcome(call.toolName)) };
}

function conflict(message: string): never {
  throw new TetherError("history_conflict", message);
}
