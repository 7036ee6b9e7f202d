import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { RecordSurfaceAttempt } from "../../protocol/index.ts";
import type { StepCall, StepResult } from "./model-step.ts";
import { providerErrorFacts, providerMessage } from "./model-error.ts";
import type { RunTool } from "../tools/index.ts";
import type { ModelCallFact, ProviderErrorFact, ToolCallFact } from "../record/index.ts";

/** What a model call was asked: the parts of the request summary that are not in its result. */
export interface ModelCallRequest {
  /** 1, 2, … within the run. */
  step: number;
  /** What answered: a model, or an upstream agent (provider `ag-ui`, its endpoint as the model id). */
  model: Pick<LanguageModelV3, "provider" | "modelId">;
  settings: Record<string, unknown>;
  /** Messages of the prompt, the instructions included. */
  messageCount: number;
  toolCount: number;
}

/**
 * The record's facts about one model call, from its request, its streamed
 * result, and what became of its tool calls and surfaces. Calls without a
 * settled fact (the step failed or was cancelled before they ran) are
 * described from the step itself.
 */
export function modelCallFact(
  request: ModelCallRequest,
  result: StepResult,
  settled: {
    toolCalls?: ToolCallFact[];
    surfaces: RecordSurfaceAttempt[];
    tools: Map<string, RunTool>;
    /** Why an aborted call's run was stopped, when it was not a cancel (see stopReason). */
    stopped?: { code: string; message: string } | undefined;
  },
): ModelCallFact {
  const { timing, usage } = result;
  const aborted = settled.stopped ?? { code: "run_cancelled", message: "The run was cancelled during this call." };
  const error = result.error ?? (result.aborted ? aborted : undefined);
  return {
    kind: "model-call",
    step: request.step,
    model: { provider: request.model.provider, modelId: request.model.modelId },
    settings: request.settings,
    messageCount: request.messageCount,
    toolCount: request.toolCount,
    startedAt: timing.startedAt.toISOString(),
    ...(timing.firstTokenMs !== undefined ? { firstTokenMs: timing.firstTokenMs } : {}),
    durationMs: timing.durationMs,
    ...(result.finishReason ? { finishReason: result.finishReason } : {}),
    ...(result.message ? { messageId: result.message.id } : {}),
    ...messageIds(result),
    toolCalls: withUpstreamCalls(result, settled.toolCalls ?? result.calls.map((call) => unsettled(call, settled.tools))),
    surfaces: settled.surfaces,
    ...(usage
      ? {
          usage: {
            ...(usage.inputTokens !== undefined ? { inputTokens: usage.inputTokens } : {}),
            ...(usage.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
            ...(usage.totalTokens !== undefined ? { totalTokens: usage.totalTokens } : {}),
          },
        }
      : {}),
    ...(error ? { error: { code: error.code, message: error.message, ...providerError(result.error) } } : {}),
  };
}

/** An upstream step's assistant messages, when it produced more than one. */
function messageIds(result: StepResult): { messageIds?: string[] } {
  const ids = (result.produced ?? []).flatMap((message) => (message.role === "assistant" ? [message.id] : []));
  return ids.length > 1 ? { messageIds: ids } : {};
}

/**
 * An upstream step's calls in the order they came: those Tether settled, and
 * those the upstream answered itself (its own tools, run there).
 */
function withUpstreamCalls(result: StepResult, facts: ToolCallFact[]): ToolCallFact[] {
  if (!result.produced) return facts;
  const settled = new Map(facts.map((fact) => [fact.toolCallId, fact]));
  const answered = new Set(result.produced.flatMap((message) => (message.role === "tool" ? [message.toolCallId] : [])));
  const ordered: ToolCallFact[] = [];
  for (const message of result.produced) {
    if (message.role !== "assistant") continue;
    for (const call of message.toolCalls ?? []) {
      const fact =
        settled.get(call.id) ??
        (answered.has(call.id) ? { toolCallId: call.id, toolName: call.function.name, location: "upstream" as const, status: "result" as const } : undefined);
      if (!fact) continue;
      ordered.push(fact);
      settled.delete(call.id);
    }
  }
  return [...ordered, ...settled.values()];
}

/** A call of a step that failed: a browser call with complete arguments stays pending (the browser may act), the rest never ran. */
function unsettled(call: StepCall, tools: Map<string, RunTool>): ToolCallFact {
  const named = { toolCallId: call.toolCallId, toolName: call.toolName };
  return call.ended && tools.get(call.toolName)?.location === "browser"
    ? { ...named, location: "browser", status: "pending" }
    : { ...named, location: "none", status: "error" };
}

/** What the provider said about a failed call, for the operator's span only (the client and the record have Tether's words). */
function providerError(error: StepResult["error"]): { provider?: ProviderErrorFact } {
  const message = error ? providerMessage(error) : undefined;
  if (message === undefined) return {};
  const { statusCode, failure } = providerErrorFacts(error!.cause);
  return { provider: { ...(statusCode ? { statusCode } : {}), failure, message } };
}
