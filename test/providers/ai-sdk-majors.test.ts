import { EventType, HttpAgent, type TextMessageContentEvent, type ToolCallArgsEvent, type ToolCallResultEvent, type ToolCallStartEvent } from "@ag-ui/client";
import { LLMock } from "@copilotkit/aimock";
import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import { createCountingIds } from "@tether-agent/tether/testing";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, defineTool, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { listen, type Listening } from "@tether-agent/tether/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AI_SDK_MAJOR_MODELS } from "./ai-sdk-major-models.ts";
import { PROVIDER_WIRES } from "./provider-wires.ts";
import { toolCall } from "./story-fixtures.ts";
import { runAgent, ofType, parseResult } from "./tether-stack.ts";

/**
 * The same story over aimock with the model from each provider's package of
 * both AI SDK majors (ai-sdk-major-models.ts): AI SDK 6's (specification v3) and
 * AI SDK 7's (v4), each given to `defineAgent` as a user who installed it
 * would give it, on the provider's real wire.
 */

const ASK = "what is the weather in Lyon";
const ARGUMENTS = { city: "Lyon", unit: "celsius" };
const ANSWER = "It is 21 degrees and sunny in Lyon, a fine afternoon for a walk by the Saône.";
const USAGE = { call: { input_tokens: 90, output_tokens: 12 }, answer: { input_tokens: 140, output_tokens: 23 } };

const mock = new LLMock({ port: 0 });
beforeAll(async () => {
  // Scoped to each wire's model id; first match wins, so the answer to the tool's result comes first.
  for (const wire of PROVIDER_WIRES) {
    const model = wire.modelId;
    mock.addFixture({ match: { model, toolResultContains: '"sunny"' }, response: { content: ANSWER, usage: USAGE.answer }, chunkSize: 6 });
    mock.addFixture({
      match: { model, userMessage: ASK, hasToolResult: false },
      // Gemini ends a function call turn with STOP, as the SDK expects; aimock's default, FUNCTION_CALL, is no Gemini finish reason.
      response: { toolCalls: [toolCall(wire, "getWeather", ARGUMENTS)], usage: USAGE.call, ...(wire.name === "google" ? { finishReason: "stop" } : {}) },
      chunkSize: 5,
    });
  }
  await mock.start();
});
afterAll(async () => {
  await mock.stop();
});

// A loop, not describe.each: its titles would cut the package names short.
for (const { name, key, wire, streamPath, specificationVersion, provider, model: build } of AI_SDK_MAJOR_MODELS) {
  describe(`a model from ${name}`, () => {
    let tether: TetherApp;
    let server: Listening;
    const executed: unknown[] = [];
    beforeAll(async () => {
      const model = build(mock.url);
      expect(model.specificationVersion).toBe(specificationVersion);
      expect(model.provider).toBe(provider);
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
        ids: createCountingIds(`tether_${key}_`),
      });
      server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
    });
    afterAll(async () => {
      await server.close();
      await tether.close();
    });

    it("streams the tool call's arguments and the answer's text, runs the tool, and records each call's model and usage", async () => {
      const agent = new HttpAgent({ url: `${server.url}/api/agents/weather/run`, threadId: `weather-${key}` });
      agent.addMessage({ id: `weather-${key}-u1`, role: "user", content: ASK });
      const before = mock.getRequests().length;
      const result = await runAgent(agent, { tools: [] });
      expect(result.failed).toBeUndefined();
      expect(result.finished!.outcome).toEqual({ type: "success" });
      // Two model calls, both on the provider's own wire.
      const paths = mock
        .getRequests()
        .slice(before)
        .map((request) => request.path);
      expect(paths.map((path) => streamPath.test(path))).toEqual([true, true]);

      // The provider's id reaches the client; where the wire carries none (Gemini 2.x), the SDK's stands in.
      const [start] = ofType<ToolCallStartEvent>(result, EventType.TOOL_CALL_START);
      expect(start?.toolCallName).toBe("getWeather");
      const toolCallId = start!.toolCallId;
      expect(toolCallId).toBe(wire.toolCallId("getWeather") ?? toolCallId);
      expect(toolCallId).toMatch(/\S/);

      // The arguments came as the wire sent them (in pieces, or whole from Gemini), and the tool ran with them.
      const args = ofType<ToolCallArgsEvent>(result, EventType.TOOL_CALL_ARGS).map((event) => event.delta);
      if (wire.streamsToolArguments) expect(args.length).toBeGreaterThan(3);
      else expect(args).toHaveLength(1);
      expect(JSON.parse(args.join(""))).toEqual(ARGUMENTS);
      expect(executed).toEqual([ARGUMENTS]);
      const toolResult = ofType<ToolCallResultEvent>(result, EventType.TOOL_CALL_RESULT)[0];
      expect(toolResult?.toolCallId).toBe(toolCallId);
      expect(parseResult(toolResult)).toMatchObject({ degrees: 21, sky: "sunny" });

      // The answer streamed in pieces.
      const text = ofType<TextMessageContentEvent>(result, EventType.TEXT_MESSAGE_CONTENT).map((event) => event.delta);
      expect(text.length).toBeGreaterThan(3);
      expect(text.join("")).toBe(ANSWER);

      const inputTokens = USAGE.call.input_tokens + USAGE.answer.input_tokens;
      const outputTokens = USAGE.call.output_tokens + USAGE.answer.output_tokens;
      expect(result.finished!.usage).toHaveLength(1);
      const { reasoningTokens, cachedInputTokens, cacheWriteInputTokens, ...counted } = result.finished!.usage![0]!;
      expect(counted).toEqual({ provider, model: wire.modelId, inputTokens, outputTokens, totalTokens: inputTokens + outputTokens });
      // Which breakdowns come depends on the provider (Anthropic's: cache reads and writes, no reasoning); any that came is zero here.
      for (const detail of [reasoningTokens, cachedInputTokens, cacheWriteInputTokens]) expect(detail ?? 0).toBe(0);

      // The record has both calls, each with its model, why it finished and what it cost.
      const record: RunRecordDocument = await (await fetch(`${server.url}/api/runs/${result.finished!.runId}/record`)).json();
      expect(
        record.modelCalls.map(({ model, finishReason, usage, toolCalls }) => ({ model, finishReason, usage, tools: toolCalls.map((call) => call.toolName) })),
      ).toEqual([
        {
          model: { provider, modelId: wire.modelId },
          finishReason: "tool-calls",
          usage: { inputTokens: 90, outputTokens: 12, totalTokens: 102 },
          tools: ["getWeather"],
        },
        {
          model: { provider, modelId: wire.modelId },
          finishReason: "stop",
          usage: { inputTokens: 140, outputTokens: 23, totalTokens: 163 },
          tools: [],
        },
      ]);
    });
  });
}
