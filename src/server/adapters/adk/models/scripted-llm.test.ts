import {
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  StreamingMode,
  type BaseLlm,
  type Event,
  type LlmRequest,
  type LlmResponse,
} from "@google/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedLlm } from "./index.ts";

// Importing @google/adk loads about 2,300 modules: once per file, and generous timeouts.
const SLOW = 60_000;

const REQUEST: LlmRequest = {
  contents: [{ role: "user", parts: [{ text: "weather in Lyon?" }] }],
  config: { systemInstruction: "Answer briefly.", tools: [{ functionDeclarations: [{ name: "getWeather", description: "Weather." }] }] },
  liveConnectConfig: {},
  toolsDict: {},
};

async function collect(model: BaseLlm, stream: boolean, signal?: AbortSignal): Promise<LlmResponse[]> {
  const responses: LlmResponse[] = [];
  for await (const response of model.generateContentAsync(structuredClone(REQUEST), stream, signal)) responses.push(response);
  return responses;
}

/** One ADK invocation with a real Runner, session service and agent: every event it yields. */
async function runAgent(model: BaseLlm, tools: FunctionTool[], text: string, streamingMode = StreamingMode.SSE): Promise<Event[]> {
  const agent = new LlmAgent({ name: "assistant", model, instruction: "Answer with the weather.", tools });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: "tether-test", agent, sessionService });
  const session = await sessionService.createSession({ appName: "tether-test", userId: "kim" });
  const events: Event[] = [];
  const run = runner.runAsync({ userId: "kim", sessionId: session.id, newMessage: { role: "user", parts: [{ text }] }, runConfig: { streamingMode } });
  for await (const event of run) events.push(event);
  return events;
}

function weatherTool(executed: unknown[]) {
  return new FunctionTool({
    name: "getWeather",
    description: "Today's weather in a city.",
    parameters: z.object({ city: z.string() }),
    execute: (input) => {
      executed.push(input);
      return { city: input.city, sky: "sunny" };
    },
  });
}

describe("createScriptedLlm", () => {
  it("streams a turn's text as partial responses, then one final response with the whole text and the calls", { timeout: SLOW }, async () => {
    const text = "Let me check the weather in Lyon for you.";
    const model = createScriptedLlm([
      {
        text,
        toolCalls: [
          { toolName: "getWeather", input: { city: "Lyon" }, toolCallId: "call_1" },
          { toolName: "getWeather", input: '{"city":"Paris"}' },
        ],
        usage: { promptTokenCount: 40, candidatesTokenCount: 12 },
      },
    ]);
    const responses = await collect(model, true);
    const partials = responses.slice(0, -1);
    expect(partials.length).toBeGreaterThanOrEqual(3);
    expect(partials.every((response) => response.partial === true && response.usageMetadata === undefined)).toBe(true);
    expect(partials.flatMap((response) => response.content?.parts ?? []).every((part) => part.functionCall === undefined)).toBe(true);
    expect(partials.map((response) => response.content?.parts?.[0]?.text).join("")).toBe(text);
    expect(responses.at(-1)).toEqual({
      content: {
        role: "model",
        parts: [
          { text },
          { functionCall: { name: "getWeather", args: { city: "Lyon" }, id: "call_1" } },
          { functionCall: { name: "getWeather", args: { city: "Paris" } } },
        ],
      },
      partial: false,
      usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 12 },
    });
  });

  it("answers with one final response when ADK does not stream", { timeout: SLOW }, async () => {
    const model = createScriptedLlm([{ text: "Sunny in Lyon." }]);
    expect(await collect(model, false)).toEqual([{ content: { role: "model", parts: [{ text: "Sunny in Lyon." }] }, partial: false }]);
  });

  it("yields raw responses as they are, and asks a step function with the request", { timeout: SLOW }, async () => {
    const raw: LlmResponse[] = [{ errorCode: "503", errorMessage: "overloaded" }];
    const seen: string[] = [];
    const model = createScriptedLlm([raw, (request) => (seen.push(String(request.config?.systemInstruction)), { text: "ok" })]);
    expect(await collect(model, true)).toEqual(raw);
    await collect(model, false);
    expect(seen).toEqual(["Answer briefly."]);
  });

  it("records each request: a copy of the contents, the declared and runnable tools, the system text", { timeout: SLOW }, async () => {
    const model = createScriptedLlm([{ text: "ok" }]);
    const request = structuredClone(REQUEST);
    request.toolsDict = { getWeather: weatherTool([]) };
    for await (const _response of model.generateContentAsync(request, true));
    request.contents[0]!.parts![0]!.text = "changed afterwards";
    expect(model.requests).toEqual([
      {
        contents: [{ role: "user", parts: [{ text: "weather in Lyon?" }] }],
        tools: ["getWeather"],
        toolsDict: ["getWeather"],
        system: "Answer briefly.",
        stream: true,
        request,
      },
    ]);
  });

  it("fails loudly past the end of the script, naming the step", { timeout: SLOW }, async () => {
    const model = createScriptedLlm([{ text: "only one" }]);
    await collect(model, false);
    await expect(collect(model, false)).rejects.toThrow("The scripted model has 1 steps; step 2 was not scripted.");
    expect(model.requests).toHaveLength(2);
  });

  it("stops yielding once the abort signal fires", { timeout: SLOW }, async () => {
    const model = createScriptedLlm([{ text: "a long answer that streams in many chunks" }], { chunkDelayMs: 5 });
    const controller = new AbortController();
    const responses: LlmResponse[] = [];
    for await (const response of model.generateContentAsync(structuredClone(REQUEST), true, controller.signal)) {
      responses.push(response);
      controller.abort();
    }
    expect(responses).toHaveLength(1);
    expect(responses[0]!.partial).toBe(true);
  });

  it("refuses live connections", { timeout: SLOW }, async () => {
    await expect(createScriptedLlm([]).connect(structuredClone(REQUEST))).rejects.toThrow("not supported");
  });

  describe("in a real ADK Runner", () => {
    it("runs the scripted call's tool once, then streams the answer; the second request holds the result", { timeout: SLOW }, async () => {
      const executed: unknown[] = [];
      const model = createScriptedLlm([
        { text: "Checking.", toolCalls: [{ toolName: "getWeather", input: { city: "Lyon" } }] },
        { text: "It is sunny in Lyon today." },
      ]);
      const events = await runAgent(model, [weatherTool(executed)], "weather in Lyon?");
      expect(executed).toEqual([{ city: "Lyon" }]);
      // Calls in the final event only: partial events carry text.
      const calls = events.flatMap((event) =>
        (event.content?.parts ?? []).filter((part) => part.functionCall).map((part) => ({ partial: event.partial, ...part.functionCall })),
      );
      expect(calls).toEqual([{ partial: false, name: "getWeather", args: { city: "Lyon" }, id: expect.stringMatching(/^adk-/) }]);
      const partialText = events.filter((event) => event.partial).map((event) => event.content?.parts?.[0]?.text ?? "");
      expect(partialText.join("")).toBe("Checking.It is sunny in Lyon today.");
      expect(events.at(-1)?.content?.parts).toEqual([{ text: "It is sunny in Lyon today." }]);

      expect(model.requests.map((request) => request.stream)).toEqual([true, true]);
      expect(model.requests[0]!.tools).toEqual(["getWeather"]);
      expect(model.requests[0]!.toolsDict).toEqual(["getWeather"]);
      expect(model.requests[0]!.system).toContain("Answer with the weather.");
      // ADK strips the ids it minted before the model sees the request.
      expect(model.requests[1]!.contents).toEqual([
        { role: "user", parts: [{ text: "weather in Lyon?" }] },
        { role: "model", parts: [{ text: "Checking." }, { functionCall: { name: "getWeather", args: { city: "Lyon" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "getWeather", response: { city: "Lyon", sky: "sunny" } } }] },
      ]);
    });

    it("fails the model call past the script, which ADK turns into an error event", { timeout: SLOW }, async () => {
      const model = createScriptedLlm([{ toolCalls: [{ toolName: "getWeather", input: { city: "Lyon" } }] }]);
      const events = await runAgent(model, [weatherTool([])], "weather in Lyon?", StreamingMode.NONE);
      expect(events.at(-1)).toMatchObject({ errorCode: "UNKNOWN_ERROR", errorMessage: "The scripted model has 1 steps; step 2 was not scripted." });
      expect(model.requests.map((request) => request.stream)).toEqual([false, false]);
    });
  });
});
