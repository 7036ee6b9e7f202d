import type { AssistantMessage, Message, RunAgentInput, State, ToolMessage } from "@ag-ui/core";
import { noResultOutcome } from "../../protocol/index.ts";
import type { NewRun } from "./prepare-run.ts";

/**
 * What an upstream agent is asked for one step of a run: the thread as Tether
 * holds it (the server's history, or the client's in client mode), the tools
 * Tether lets it call (the allow-listed browser tools, as the client worded
 * them, and the agent's own server tools), the client's context, and the
 * run's shared state as it is now. Each step is one upstream run; the first
 * has the run's own id.
 */
export function upstreamInput(run: NewRun, messages: Message[], step: number, state: State): RunAgentInput {
  return {
    threadId: run.threadId,
    runId: step === 1 ? run.runId : `${run.runId}-${step}`,
    messages: asProvidersTakeThem(messages),
    // The upstream knows its own tools; it is offered the ones Tether answers.
    tools: [...run.toolSet.tools.values()]
      .filter((tool) => tool.location !== "upstream")
      .map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.modelParameters })),
    context: run.context,
    state,
    forwardedProps: {},
  };
}

/**
 * The thread as a model provider takes it, by the rules Tether's own prompt
 * follows (prompt.ts): a call cut off mid-arguments (an upstream that failed
 * or hit a cap, a cancel) has them as `{ "invalidArguments": "…" }`, and a call
 * with no result gets "no result was reported" right after its message.
 * Otherwise an upstream that once broke off a call would be sent JSON its
 * provider refuses on every run that follows. Messages that need neither are
 * passed as they are.
 */
function asProvidersTakeThem(messages: Message[]): Message[] {
  const answered = new Set<string>();
  for (const message of messages) if (message.role === "tool") answered.add(message.toolCallId);
  const out: Message[] = [];
  let owed: ToolMessage[] = [];
  for (const message of messages) {
    // Owed results go after the results already there, before whatever comes next.
    if (owed.length > 0 && message.role !== "tool") out.push(...owed.splice(0));
    if (message.role !== "assistant" || !message.toolCalls?.length) {
      out.push(message);
      continue;
    }
    const calls = message.toolCalls.map((call) =>
      isJson(call.function.arguments) ? call : { ...call, function: { ...call.function, arguments: asJson(call.function.arguments) } },
    );
    out.push(calls.some((call, index) => call !== message.toolCalls![index]) ? ({ ...message, toolCalls: calls } as AssistantMessage) : message);
    for (const call of calls) {
      if (answered.has(call.id)) continue;
      owed.push({ id: `${call.id}-no-result`, role: "tool", toolCallId: call.id, content: JSON.stringify(noResultOutcome(call.function.name)) });
    }
  }
  out.push(...owed);
  return out;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function asJson(text: string): string {
  return text.trim() === "" ? "{}" : JSON.stringify({ invalidArguments: text });
}
