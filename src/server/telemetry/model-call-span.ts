import { SpanKind, SpanStatusCode, type Context, type Tracer } from "@opentelemetry/api";
import type { ModelCallFact } from "../record/index.ts";
import { GEN_AI, GEN_AI_OPERATION, TETHER } from "./gen-ai-attributes.ts";
import { providerName } from "./provider-name.ts";

/**
 * The span of one model call (`chat <model>`), from the fact the run wrote
 * about it: started and ended when the call was, with the GenAI request,
 * response and usage attributes. Returns when it ended (epoch milliseconds).
 */
export function modelCallSpan(tracer: Tracer, parent: Context, fact: ModelCallFact): number {
  const startTime = Date.parse(fact.startedAt);
  const endTime = startTime + fact.durationMs;
  const { usage } = fact;
  const span = tracer.startSpan(
    `${GEN_AI_OPERATION.CHAT} ${fact.model.modelId}`,
    {
      kind: SpanKind.CLIENT,
      startTime,
      attributes: {
        [GEN_AI.OPERATION_NAME]: GEN_AI_OPERATION.CHAT,
        [GEN_AI.PROVIDER_NAME]: providerName(fact.model.provider),
        [GEN_AI.REQUEST_MODEL]: fact.model.modelId,
        [TETHER.MODEL_CALL_STEP]: fact.step,
        [TETHER.MODEL_CALL_MESSAGE_COUNT]: fact.messageCount,
        [TETHER.MODEL_CALL_TOOL_COUNT]: fact.toolCount,
        ...(fact.finishReason ? { [GEN_AI.RESPONSE_FINISH_REASONS]: [fact.finishReason] } : {}),
        ...(fact.firstTokenMs !== undefined ? { [GEN_AI.RESPONSE_TIME_TO_FIRST_CHUNK]: fact.firstTokenMs / 1000 } : {}),
        ...(usage?.inputTokens !== undefined ? { [GEN_AI.USAGE_INPUT_TOKENS]: usage.inputTokens } : {}),
        ...(usage?.outputTokens !== undefined ? { [GEN_AI.USAGE_OUTPUT_TOKENS]: usage.outputTokens } : {}),
      },
    },
    parent,
  );
  if (fact.error) {
    span.setAttribute(GEN_AI.ERROR_TYPE, fact.error.code);
    // A trace is the operator's: the provider's own words (redacted when the fact was written) belong there too.
    const provider = fact.error.provider ? ` The provider said: ${fact.error.provider.message}` : "";
    span.setStatus({ code: SpanStatusCode.ERROR, message: `${fact.error.message}${provider}` });
  }
  span.end(endTime);
  return endTime;
}
