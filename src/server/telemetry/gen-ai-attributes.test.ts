import { ATTR_ERROR_TYPE } from "@opentelemetry/semantic-conventions";
import * as incubating from "@opentelemetry/semantic-conventions/incubating";
import { describe, expect, it } from "vitest";
import { GEN_AI, GEN_AI_OPERATION } from "./gen-ai-attributes.ts";

describe("the GenAI attribute names", () => {
  it("are the names @opentelemetry/semantic-conventions defines", () => {
    expect(GEN_AI).toEqual({
      OPERATION_NAME: incubating.ATTR_GEN_AI_OPERATION_NAME,
      PROVIDER_NAME: incubating.ATTR_GEN_AI_PROVIDER_NAME,
      AGENT_ID: incubating.ATTR_GEN_AI_AGENT_ID,
      AGENT_NAME: incubating.ATTR_GEN_AI_AGENT_NAME,
      CONVERSATION_ID: incubating.ATTR_GEN_AI_CONVERSATION_ID,
      REQUEST_MODEL: incubating.ATTR_GEN_AI_REQUEST_MODEL,
      RESPONSE_FINISH_REASONS: incubating.ATTR_GEN_AI_RESPONSE_FINISH_REASONS,
      RESPONSE_TIME_TO_FIRST_CHUNK: incubating.ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK,
      USAGE_INPUT_TOKENS: incubating.ATTR_GEN_AI_USAGE_INPUT_TOKENS,
      USAGE_OUTPUT_TOKENS: incubating.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS,
      TOOL_NAME: incubating.ATTR_GEN_AI_TOOL_NAME,
      TOOL_CALL_ID: incubating.ATTR_GEN_AI_TOOL_CALL_ID,
      TOOL_TYPE: incubating.ATTR_GEN_AI_TOOL_TYPE,
      ERROR_TYPE: ATTR_ERROR_TYPE,
    });
    expect(GEN_AI_OPERATION).toEqual({
      INVOKE_AGENT: incubating.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      CHAT: incubating.GEN_AI_OPERATION_NAME_VALUE_CHAT,
      EXECUTE_TOOL: incubating.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    });
  });
});
