import type { Message } from "@ag-ui/core";
import type { RecordModelCall } from "../../protocol/index.ts";
import { keep } from "./keep.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { redactString } from "./redact/index.ts";
import type { ModelCallFact, RunFact } from "./run-facts.ts";
import { withUpstreamEvents } from "./record-upstream-events.ts";

/**
 * Part 3 of a record, each model call: the facts the run wrote down, with
 * the text and tool calls of the message it produced and each call's result,
 * from the thread's messages, and for an upstream agent's step the events it sent.
 */
export function recordModelCalls(facts: RunFact[], byId: Map<string, Message>, results: Map<string, Message>): RecordModelCall[] {
  const calls: RecordModelCall[] = [];
  for (const fact of facts) {
    if (fact.kind !== "model-call") continue;
    const { kind: _kind, messageId, messageIds, toolCalls, ...rest } = fact;
    const assistants = (messageIds ?? (messageId ? [messageId] : [])).flatMap((id) => {
      const message = byId.get(id);
      return message?.role === "assistant" ? [message] : [];
    });
    const argumentsOf = new Map(assistants.flatMap((assistant) => (assistant.toolCalls ?? []).map((call) => [call.id, call.function.arguments] as const)));
    const text = assistants.map((assistant) => (typeof assistant.content === "string" ? assistant.content : "")).join("");
    calls.push({
      ...rest,
      ...(rest.error ? { error: redactError(rest.error) } : {}),
      text: keep(text, RECORD_LIMITS.text),
      toolCalls: toolCalls.map((call) => {
        // A browser call's outcome, or an approved call's result, comes in a later run: that run's record has it.
        const result = call.status === "pending" || call.status === "approval" ? undefined : results.get(call.toolCallId);
        return {
          ...call,
          arguments: keep(argumentsOf.get(call.toolCallId) ?? "", RECORD_LIMITS.string),
          ...(result && typeof result.content === "string" ? { result: keep(parseJson(result.content), RECORD_LIMITS.value) } : {}),
        };
      }),
    });
  }
  return withUpstreamEvents(calls, facts);
}

/** A call's error as the client was told it, redacted again with today's rules; of the provider's error, its status and kind only. */
function redactError(error: NonNullable<ModelCallFact["error"]>): NonNullable<RecordModelCall["error"]> {
  const { code, message, provider } = error;
  return {
    code,
    message: redactString(message),
    ...(provider
      ? { provider: { ...(provider.statusCode ? { statusCode: provider.statusCode } : {}), ...(provider.failure ? { failure: provider.failure } : {}) } }
      : {}),
  };
}

/** A result as the model read it: JSON when it is, else the text. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
