import { EventType, HttpAgent, type TextMessageContentEvent, type ToolCallArgsEvent, type ToolCallResultEvent } from "@ag-ui/client";
import { LLMock } from "@copilotkit/aimock";
import { createOpenAI as createOpenAI3 } from "@ai-sdk/openai";
import { createOpenAI as createOpenAI4 } from "ai-sdk-openai-4";
import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { createCountingIds } from "@tether-agent/tether/testing";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, defineTool, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { listen, type Listening } from "@tether-agent/tether/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgent, ofType, parseResult } from "./tether-stack.ts";

/**
 * The same story over aimock's OpenAI wire with the model from each AI SDK
 * major's OpenAI provider: `@ai-sdk/openai` 3 (AI SDK 6, specification v3)
 * and 4 (AI SDK 7, specification v4), each given to `defineAgent` as a user
 * who ran `npm install @ai-sdk/openai` would give it.
 */

const MODEL_ID = "gpt-4o-mini";
const ASK = "what is the weather in Lyon";
const ARGUMENTS = { city: "Lyon", unit: "celsius" };
const ANSWER = "It is 21 degrees and sunny in Lyon, a fine afternoon for a walk by the Saône.";
const USAGE = { call: { input_tokens: 90, output_tokens: 12 }, answer: { input_tokens: 140, output_tokens: 23 } };

const openai3 = (baseURL: string) => createOpenAI3({ apiKey: "test-key", baseURL });
const openai4 = (baseURL: string) => createOpenAI4({ apiKey: "test-key", baseURL });

/** Each major's models on both of OpenAI's APIs: Chat Completions (`.chat`) and Responses (the provider's default). */
const MAJORS = [
  {
    name: "AI SDK 6 (@ai-sdk/openai 3, spec v3), Chat Completions",
    key: "v3-chat",
    version: "v3",
    provider: "openai.chat",
    model: (url: string) => openai3(url).chat(MODEL_ID),
  },
  {
    name: "AI SDK 7 (@ai-sdk/openai 4, spec v4), Chat Completions",
    key: "v4-chat",
    version: "v4",
    provider: "openai.chat",
    model: (url: string) => openai4(url).chat(MODEL_ID),
  },
  {
    name: "AI SDK 6 (@ai-sdk/openai 3, spec v3), Responses",
    key: "v3-responses",
    version: "v3",
    provider: "openai.responses",
    model: (url: string) => openai3(url)(MODEL_ID),
  },
  {
    name: "AI SDK 7 (@ai-sdk/openai 4, spec v4), Responses",
    key: "v4-responses",
    version: "v4",
    provider: "openai.responses",
    model: (url: string) => openai4(url)(MODEL_ID),
  },
] as const;

const mock = new LLMock({ port: 0 });
beforeAll(async () => {
  mock.addFixture({ match: { model: MODEL_ID, toolResultContains: '"sunny"' }, response: { content: ANSWER, usage: USAGE.answer }, chunkSize: 6 });
  mock.addFixture({
    match: { model: MODEL_ID, userMessage: ASK, hasToolResult: false },
    response: { toolCalls: [{ id: "call_weather_1", name: "getWeather", arguments: JSON.stringify(ARGUMENTS) }], usage: USAGE.call },
    chunkSize: 5,
  });
  await mock.start();
});
afterAll(async () => {
  await mock.stop();
});

describe.each(MAJORS)("a model from $name", (major) => {
  let tether: TetherApp;
  let server: Listening;
  const executed: unknown[] = [];
  beforeAll(async () => {
    const model = major.model(`${mock.url}/v1`);
    expect(model.specificationVersion).toBe(major.version);
    const weather = defineTool({
      name: "getWeather",
      description: "Today's weather in a city.",
      parameters: z.object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]) }),
      execute: (input) => {
        executed.push(input);
        return { city: input.city, degrees: 21, sky: "sunny" };
      },
    });
    // No cast: defineAgent takes the model of either major as it comes.
    const agent = defineAgent({ id: "weather", model, tools: [weather], instructions: "Answer with the weather." });
    tether = await createTetherApp({
      agents: [agent],
      authenticate: () => ({ id: "kim" }),
      store: createMemoryRunStore(),
      logger: silentLogger,
      ids: createCountingIds(`tether_${major.key}_`),
    });
    server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await server.close();
    await tether.close();
  });

  it("streams the tool call's arguments and the answer's text, runs the tool, and records each call's usage", async () => {
    const agent = new HttpAgent({ url: `${server.url}/api/agents/weather/run`, threadId: `weather-${major.key}` });
    agent.addMessage({ id: `weather-${major.key}-u1`, role: "user", content: ASK });
    const result = await runAgent(agent, { tools: [] });
    expect(result.failed).toBeUndefined();
    expect(result.finished!.outcome).toEqual({ type: "success" });

    // The arguments came in pieces, as the wire sent them, and the tool ran with them.
    const args = ofType<ToolCallArgsEvent>(result, EventType.TOOL_CALL_ARGS).map((event) => event.delta);
    expect(args.length).toBeGreaterThan(3);
    expect(JSON.parse(args.join(""))).toEqual(ARGUMENTS);
    expect(executed).toEqual([ARGUMENTS]);
    const toolResult = ofType<ToolCallResultEvent>(result, EventType.TOOL_CALL_RESULT)[0];
    expect(toolResult?.toolCallId).toBe("call_weather_1");
    expect(parseResult(toolResult)).toMatchObject({ degrees: 21, sky: "sunny" });

    // The answer streamed in pieces too.
    const text = ofType<TextMessageContentEvent>(result, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta);
    expect(text.length).toBeGreaterThan(3);
    expect(text.join("")).toBe(ANSWER);

    const inputTokens = USAGE.call.input_tokens + USAGE.answer.input_tokens;
    const outputTokens = USAGE.call.output_tokens + USAGE.answer.output_tokens;
    expect(result.finished!.usage).toEqual([
      {
        provider: major.provider,
        model: MODEL_ID,
        inputTokens,
        outputTokens,
        totalTokens: inputTokens + outputTokens,
        reasoningTokens: 0,
        cachedInputTokens: 0,
      },
    ]);

    // The record has both calls, each with why it finished and what it cost.
    const record: RunRecordDocument = await (await fetch(`${server.url}/api/runs/${result.finished!.runId}/record`)).json();
    expect(
      record.modelCalls.map(({ model, finishReason, usage, toolCalls }) => ({ model, finishReason, usage, tools: toolCalls.map((call) => call.toolName) })),
    ).toEqual([
      {
        model: { provider: major.provider, modelId: MODEL_ID },
        finishReason: "tool-calls",
        usage: { inputTokens: 90, outputTokens: 12, totalTokens: 102 },
        tools: ["getWeather"],
      },
      {
        model: { provider: major.provider, modelId: MODEL_ID },
        finishReason: "stop",
        usage: { inputTokens: 140, outputTokens: 23, totalTokens: 163 },
        tools: [],
      },
    ]);
  });
});
