import { LLMock } from "@copilotkit/aimock";
import { FunctionTool, Gemini, InMemorySessionService, LlmAgent, Runner, StreamingMode, type Event, type LlmRequest, type LlmResponse } from "@google/adk";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { isTetherError } from "../../../../protocol/index.ts";
import { createGeminiLlm } from "./index.ts";

// Importing @google/adk loads about 2,300 modules: once per file, and generous timeouts.
const SLOW = 60_000;

const MODEL = "gemini-2.5-flash";
const ASK = "what is the weather in Lyon";
const ANSWER = "It is 21 degrees and sunny in Lyon.";
const HELLO = "Hello from aimock, in small pieces.";
const GENERATE_PATH = `/v1beta/models/${MODEL}:generateContent`;
const STREAM_PATH = `/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`;

// aimock redacts keys in its journal; it checks them instead, so a call with another key is refused.
const mock = new LLMock({ port: 0, auth: { apiKeys: ["test-key", "key-from-env"] } });
beforeAll(async () => {
  // First match wins: the answer to the tool's result comes first.
  mock.addFixture({
    match: { model: MODEL, toolResultContains: '"sunny"' },
    response: { content: ANSWER, usage: { input_tokens: 60, output_tokens: 9 } },
    chunkSize: 6,
  });
  mock.addFixture({
    match: { model: MODEL, userMessage: ASK, hasToolResult: false },
    response: { toolCalls: [{ name: "getWeather", arguments: JSON.stringify({ city: "Lyon" }) }], usage: { input_tokens: 40, output_tokens: 5 } },
  });
  mock.addFixture({
    match: { model: MODEL, userMessage: "say hello" },
    response: { content: HELLO, usage: { input_tokens: 7, output_tokens: 8 } },
    chunkSize: 8,
  });
  await mock.start();
});
afterAll(async () => {
  await mock.stop();
});
afterEach(() => {
  mock.clearRequests();
  vi.unstubAllEnvs();
});

function ask(text: string): LlmRequest {
  return { contents: [{ role: "user", parts: [{ text }] }], liveConnectConfig: {}, toolsDict: {} };
}

async function collect(model: Gemini, request: LlmRequest, stream: boolean): Promise<LlmResponse[]> {
  const responses: LlmResponse[] = [];
  for await (const response of model.generateContentAsync(request, stream)) responses.push(response);
  return responses;
}

async function runAgent(model: Gemini, streamingMode: StreamingMode, executed: unknown[]): Promise<Event[]> {
  const getWeather = new FunctionTool({
    name: "getWeather",
    description: "Today's weather in a city.",
    parameters: z.object({ city: z.string() }),
    execute: (input) => (executed.push(input), { city: input.city, degrees: 21, sky: "sunny" }),
  });
  const agent = new LlmAgent({ name: "assistant", model, instruction: "Answer with the weather.", tools: [getWeather] });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: "tether-test", agent, sessionService });
  const session = await sessionService.createSession({ appName: "tether-test", userId: "kim" });
  const events: Event[] = [];
  const newMessage = { role: "user", parts: [{ text: ASK }] };
  for await (const event of runner.runAsync({ userId: "kim", sessionId: session.id, newMessage, runConfig: { streamingMode } })) events.push(event);
  return events;
}

const gemini = (headers?: Record<string, string>) => createGeminiLlm({ model: MODEL, apiKey: "test-key", baseUrl: mock.url, ...(headers ? { headers } : {}) });

describe("createGeminiLlm", () => {
  it("is ADK's own Gemini, reaching the API at its own base URL with its key and headers", { timeout: SLOW }, async () => {
    const model = gemini({ "x-tether-test": "yes" });
    expect(model).toBeInstanceOf(Gemini);
    expect(model.model).toBe(MODEL);
    const responses = await collect(model, ask("say hello"), false);
    expect(responses).toHaveLength(1);
    expect(responses[0]!.content?.parts).toEqual([{ text: HELLO }]);
    expect(responses[0]!.usageMetadata).toMatchObject({ promptTokenCount: 7, candidatesTokenCount: 8 });
    const [request] = mock.getRequests();
    expect(request).toMatchObject({ method: "POST", path: GENERATE_PATH, headers: { "x-tether-test": "yes" }, response: { status: 200 } });
  });

  it("is refused by aimock with a key it does not know (the check the tests rely on)", { timeout: SLOW }, async () => {
    const model = createGeminiLlm({ model: MODEL, apiKey: "wrong-key", baseUrl: mock.url });
    await expect(collect(model, ask("say hello"), false)).rejects.toThrow("Invalid API key");
    // Refused before any fixture: aimock's journal does not list it.
    expect(mock.getRequests()).toEqual([]);
  });

  it("streams text as partial responses, then the whole text in a final one", { timeout: SLOW }, async () => {
    const responses = await collect(gemini(), ask("say hello"), true);
    const partials = responses.filter((response) => response.partial);
    expect(partials.length).toBeGreaterThan(1);
    expect(partials.map((response) => response.content?.parts?.[0]?.text).join("")).toBe(HELLO);
    expect(responses.filter((response) => !response.partial).map((response) => response.content?.parts)).toContainEqual([{ text: HELLO }]);
    expect(mock.getRequests().map((request) => request.path)).toEqual([STREAM_PATH]);
  });

  it("answers a function call", { timeout: SLOW }, async () => {
    const responses = await collect(gemini(), ask(ASK), false);
    expect(responses.map((response) => response.content?.parts)).toEqual([
      [{ functionCall: expect.objectContaining({ name: "getWeather", args: { city: "Lyon" } }) }],
    ]);
  });

  for (const streamingMode of [StreamingMode.SSE, StreamingMode.NONE]) {
    it(`in a real ADK Runner (${streamingMode}): calls the tool once, then answers from its result`, { timeout: SLOW }, async () => {
      const executed: unknown[] = [];
      const events = await runAgent(gemini(), streamingMode, executed);
      expect(executed).toEqual([{ city: "Lyon" }]);
      const calls = events.flatMap((event) =>
        (event.content?.parts ?? []).flatMap((part) => (part.functionCall ? [{ partial: event.partial, ...part.functionCall }] : [])),
      );
      expect(calls).toEqual([expect.objectContaining({ name: "getWeather", args: { city: "Lyon" }, id: expect.stringMatching(/^adk-/) })]);
      expect(calls[0]!.partial).not.toBe(true);
      const answers = events.filter((event) => !event.partial && event.content?.parts?.some((part) => part.text));
      expect(answers.map((event) => event.content?.parts)).toEqual([[{ text: ANSWER }]]);
      expect(events.some((event) => event.partial)).toBe(streamingMode === StreamingMode.SSE);
      const path = streamingMode === StreamingMode.SSE ? STREAM_PATH : GENERATE_PATH;
      expect(mock.getRequests().map((request) => request.path)).toEqual([path, path]);
    });
  }

  it("fails as config_invalid naming GOOGLE_API_KEY when there is no key", { timeout: SLOW }, () => {
    for (const name of ["GOOGLE_GENAI_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY", "GOOGLE_GENAI_USE_VERTEXAI"]) vi.stubEnv(name, "");
    let thrown: unknown;
    try {
      createGeminiLlm({ model: MODEL, baseUrl: mock.url });
    } catch (error) {
      thrown = error;
    }
    expect(isTetherError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: "config_invalid", message: expect.stringContaining("GOOGLE_API_KEY") });
    expect((thrown as Error).cause).toBeInstanceOf(Error);
  });

  it("reads the key from GOOGLE_API_KEY when none is passed", { timeout: SLOW }, async () => {
    vi.stubEnv("GOOGLE_GENAI_API_KEY", "");
    vi.stubEnv("GOOGLE_API_KEY", "key-from-env");
    const responses = await collect(createGeminiLlm({ model: MODEL, baseUrl: mock.url }), ask("say hello"), false);
    expect(responses[0]!.content?.parts).toEqual([{ text: HELLO }]);
    expect(mock.getRequests().map((request) => request.response.status)).toEqual([200]);
  });
});
