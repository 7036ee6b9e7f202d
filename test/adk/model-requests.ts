import type { BaseEvent } from "@ag-ui/core";
import type { RecordedLlmRequest } from "@tether-agent/tether/adk";

/**
 * What the ADK model was sent and what a run streamed, read the way the ADK tests ask it.
 */

type Contents = RecordedLlmRequest["contents"];

/** Every function call of a request, in order, with its arguments. */
export const callsIn = (contents: Contents) =>
  contents.flatMap((content) => (content.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall] : [])));

/** Every function response of a request, in order. */
export const responsesIn = (contents: Contents) =>
  contents.flatMap((content) => (content.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : [])));

/**
 * Each call of a request with the response a provider pairs it with: by id when the call kept one
 * (ADK strips the ids it minted), otherwise the n-th call of a name with the n-th response of that
 * name in the next turn, as Gemini pairs calls without ids.
 */
export function callsWithResponses(contents: Contents) {
  const paired: Array<{ name: string | undefined; args: unknown; response: unknown }> = [];
  contents.forEach((content, index) => {
    const calls = (content.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall] : []));
    if (calls.length === 0) return;
    const answers = (contents[index + 1]?.parts ?? []).flatMap((part) => (part.functionResponse ? [part.functionResponse] : []));
    const seen = new Map<string | undefined, number>();
    for (const call of calls) {
      const nth = seen.get(call.name) ?? 0;
      seen.set(call.name, nth + 1);
      const answer = call.id ? answers.find((response) => response.id === call.id) : answers.filter((response) => response.name === call.name)[nth];
      paired.push({ name: call.name, args: call.args, response: answer?.response });
    }
  });
  return paired;
}

/** The events of one type, with the fields the tests read. */
export const ofType = (events: BaseEvent[], type: string) =>
  events.filter((event) => event.type === type) as Array<BaseEvent & { toolCallId?: string; toolCallName?: string; content?: string; delta?: unknown }>;
