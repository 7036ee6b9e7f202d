/**
 * The OpenTelemetry GenAI semantic conventions' names Tether's spans use.
 * Most are still incubating, and `@opentelemetry/semantic-conventions` asks
 * users to copy incubating names rather than import them (they may change in a
 * minor release); gen-ai-attributes.test.ts checks each copy against the
 * pinned package, so a change shows up as a failing test, not a silent drift.
 */
export const GEN_AI = {
  OPERATION_NAME: "gen_ai.operation.name",
  PROVIDER_NAME: "gen_ai.provider.name",
  AGENT_ID: "gen_ai.agent.id",
  AGENT_NAME: "gen_ai.agent.name",
  CONVERSATION_ID: "gen_ai.conversation.id",
  REQUEST_MODEL: "gen_ai.request.model",
  RESPONSE_FINISH_REASONS: "gen_ai.response.finish_reasons",
  /** Seconds from the request to the first streamed chunk. */
  RESPONSE_TIME_TO_FIRST_CHUNK: "gen_ai.response.time_to_first_chunk",
  USAGE_INPUT_TOKENS: "gen_ai.usage.input_tokens",
  USAGE_OUTPUT_TOKENS: "gen_ai.usage.output_tokens",
  TOOL_NAME: "gen_ai.tool.name",
  TOOL_CALL_ID: "gen_ai.tool.call.id",
  TOOL_TYPE: "gen_ai.tool.type",
  /** Stable (not incubating): the class of error a failed operation ended with. */
  ERROR_TYPE: "error.type",
} as const;

/** Values of `gen_ai.operation.name`. */
export const GEN_AI_OPERATION = {
  INVOKE_AGENT: "invoke_agent",
  CHAT: "chat",
  EXECUTE_TOOL: "execute_tool",
} as const;

/**
 * Tether's own attributes, beside the GenAI ones: what joins a span to its
 * run record, and what the conventions have no name for.
 */
export const TETHER = {
  RUN_ID: "tether.run.id",
  RUN_TRIGGER: "tether.run.trigger",
  RUN_PARENT_ID: "tether.run.parent_id",
  RUN_STATUS: "tether.run.status",
  RUN_OUTCOME: "tether.run.outcome",
  MODEL_CALL_STEP: "tether.model_call.step",
  MODEL_CALL_MESSAGE_COUNT: "tether.model_call.message_count",
  MODEL_CALL_TOOL_COUNT: "tether.model_call.tool_count",
  TOOL_LOCATION: "tether.tool.location",
  TOOL_STATUS: "tether.tool.status",
  INTERRUPT_ID: "tether.interrupt.id",
} as const;
