import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, type Context, type Span, type Tracer, type TracerProvider } from "@opentelemetry/api";
import type { RunObserver, ObserveRun, NewRun } from "../run/index.ts";
import type { RunEnding } from "../hub/index.ts";
import type { ModelCallFact, RunFact } from "../record/index.ts";
import { GEN_AI, GEN_AI_OPERATION, TETHER } from "./gen-ai-attributes.ts";
import { modelCallSpan } from "./model-call-span.ts";
import { runTriggerKind } from "./run-trigger-kind.ts";
import { toolCallSpan } from "./tool-call-span.ts";

/** The instrumentation scope Tether's spans carry. */
export const TRACER_NAME = "tether";

/**
 * Traces runs: a span per run (`invoke_agent <agentId>`) and, as the run
 * writes its facts, a child span per model call (`chat <model>`) and per tool
 * call (`execute_tool <name>`), with their real start and end times. The spans
 * are parented explicitly on the run span, so no context manager is needed;
 * the run span itself is a child of whatever span is active when the run
 * starts (an instrumented HTTP request, say).
 */
export function traceRuns(provider: TracerProvider): ObserveRun {
  const tracer = provider.getTracer(TRACER_NAME);
  return (run) => observeRunSpans(tracer, run);
}

function observeRunSpans(tracer: Tracer, run: NewRun): RunObserver {
  const span = tracer.startSpan(
    `${GEN_AI_OPERATION.INVOKE_AGENT} ${run.agent.id}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.INVOKE_AGENT,
        [GEN_AI.AGENT_ID]: run.agent.id,
        [GEN_AI.AGENT_NAME]: run.agent.id,
        [GEN_AI.CONVERSATION_ID]: run.threadId,
        [TETHER.RUN_ID]: run.runId,
        [TETHER.RUN_TRIGGER]: runTriggerKind(run),
        ...(run.parentRunId ? { [TETHER.RUN_PARENT_ID]: run.parentRunId } : {}),
      },
    },
    context.active(),
  );
  // An unsampled run leaves no trace to join, and its children would be dropped anyway.
  if (!span.isRecording()) return { startFacts: [], fact() {}, end() {} };
  const { traceId, spanId } = span.spanContext();
  const parent = trace.setSpan(ROOT_CONTEXT, span);
  let ended = false;
  return {
    startFacts: [{ kind: "trace", traceId, spanId }],
    fact(fact: RunFact) {
      if (fact.kind === "model-call") recordModelCall(tracer, parent, fact);
    },
    end(ending) {
      if (ended) return;
      ended = true;
      endRunSpan(span, ending);
    },
  };
}

function recordModelCall(tracer: Tracer, parent: Context, fact: ModelCallFact) {
  const ended = modelCallSpan(tracer, parent, fact);
  for (const call of fact.toolCalls) toolCallSpan(tracer, parent, call, ended);
}

function endRunSpan(span: Span, ending: RunEnding) {
  span.setAttribute(TETHER.RUN_STATUS, ending.status);
  if (ending.outcome) span.setAttribute(TETHER.RUN_OUTCOME, ending.outcome.type);
  // The run's tokens, summed over its model calls: only the counts some call reported.
  for (const [key, attribute] of [
    ["inputTokens", GEN_AI.USAGE_INPUT_TOKENS],
    ["outputTokens", GEN_AI.USAGE_OUTPUT_TOKENS],
  ] as const) {
    const counts = (ending.usage ?? []).flatMap((usage) => (usage[key] === undefined ? [] : [usage[key]]));
    if (counts.length > 0)
      span.setAttribute(
        attribute,
        counts.reduce((sum, count) => sum + count, 0),
      );
  }
  if (ending.error) {
    span.setAttribute(GEN_AI.ERROR_TYPE, ending.error.code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: ending.error.message });
  }
  span.end();
}
