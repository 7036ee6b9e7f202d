import { SpanKind, SpanStatusCode, type Context, type Tracer } from "@opentelemetry/api";
import type { ToolCallFact } from "../record/index.ts";
import { GEN_AI, GEN_AI_OPERATION, TETHER } from "./gen-ai-attributes.ts";

/**
 * `gen_ai.tool.type` by where a tool runs: the conventions call a tool the
 * agent's side executes an extension (an upstream agent's own tool is on the
 * agent's side too), and one the client executes a function.
 */
const TOOL_TYPE = { server: "extension", upstream: "extension", browser: "function" } as const;

/**
 * The span of one tool call (`execute_tool <name>`), from the fact the run
 * wrote about it. A server tool's span covers its execution; a browser call
 * (handed to the browser), an approval asked for, or a refused call is an
 * instant at the end of the model call that produced it, its status saying
 * which (the browser's outcome, or the approved execution, is in a later run).
 */
export function toolCallSpan(tracer: Tracer, parent: Context, call: ToolCallFact, modelCallEnd: number): void {
  const startTime = call.startedAt ? Date.parse(call.startedAt) : modelCallEnd;
  const span = tracer.startSpan(
    `${GEN_AI_OPERATION.EXECUTE_TOOL} ${call.toolName}`,
    {
      kind: SpanKind.INTERNAL,
      startTime,
      attributes: {
        [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.EXECUTE_TOOL,
        [GEN_AI.TOOL_NAME]: call.toolName,
        [GEN_AI.TOOL_CALL_ID]: call.toolCallId,
        ...(call.location === "none" ? {} : { [GEN_AI.TOOL_TYPE]: TOOL_TYPE[call.location] }),
        [TETHER.TOOL_LOCATION]: call.location,
        [TETHER.TOOL_STATUS]: call.status,
        ...(call.interruptId ? { [TETHER.INTERRUPT_ID]: call.interruptId } : {}),
      },
    },
    parent,
  );
  if (call.status === "error" || call.status === "refused") {
    span.setAttribute(GEN_AI.ERROR_TYPE, call.status === "refused" ? "tool_refused" : "tool_error");
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end(startTime + (call.durationMs ?? 0));
}
