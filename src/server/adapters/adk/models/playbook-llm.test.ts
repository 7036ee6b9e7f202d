import { FunctionTool, InMemorySessionService, LlmAgent, Runner, StreamingMode, type Event, type LlmRequest, type LlmResponse } from "@google/adk";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Playbook, PlaybookConversation } from "../../../models/playbook/index.ts";
import { createPlaybookLlm } from "./index.ts";

// Importing @google/adk loads about 2,300 modules: once per file, and generous timeouts.
const SLOW = 60_000;

/** A tiny playbook: look the weather up, then say what the tool returned. It keeps what it was shown. */
function weatherPlaybook(seen: PlaybookConversation[]): Playbook {
  return {
    name: "weather",
    respond(conversation) {
      seen.push(conversation);
      const [latest] = conversation.results.slice(-1);
      if (latest?.toolName === "getWeather") {
        const { city } = latest.input as { city: string };
        return { text: `It is ${(latest.output as { sky: string }).sky} in ${city}.` };
      }
      const city = /in (\w+)/.exec(conversation.userText)?.[1] ?? "Lyon";
      // An id of the script's own, which the model must not pass on (it would repeat across turns).
      return { text: "Checking.", toolCalls: [{ toolName: "getWeather", input: { city }, toolCallId: "fixed" }] };
    },
  };
}

async function runAgent(playbook: Playbook, streamingMode: StreamingMode, executed: unknown[]): Promise<Event[]> {
  const getWeather = new FunctionTool({
    name: "getWeather",
    description: "Today's weather in a city.",
    parameters: z.object({ city: z.string() }),
    execute: (input) => (executed.push(input), { sky: "sunny", degrees: 21 }),
  });
  const agent = new LlmAgent({
    name: "assistant",
    model: createPlaybookLlm(playbook, { chunkDelayMs: 0 }),
    instruction: "Answer with the weather.",
    tools: [getWeather],
  });
  const sessionService = new InMemorySessionService();
  const runner = new Runner({ appName: "tether-test", agent, sessionService });
  const session = await sessionService.createSession({ appName: "tether-test", userId: "kim" });
  const events: Event[] = [];
  const newMessage = { role: "user", parts: [{ text: "what is the weather in Oslo" }] };
  for await (const event of runner.runAsync({ userId: "kim", sessionId: session.id, newMessage, runConfig: { streamingMode } })) events.push(event);
  return events;
}

describe("createPlaybookLlm", () => {
  it("plays the playbook's turn: text as partials, then a final response with the text and the calls, without ids", { timeout: SLOW }, async () => {
    const model = createPlaybookLlm(weatherPlaybook([]), { chunkDelayMs: 0 });
    expect(model.model).toBe("playbook:weather");
    const request: LlmRequest = { contents: [{ role: "user", parts: [{ text: "weather in Paris" }] }], liveConnectConfig: {}, toolsDict: {} };
    const responses: LlmResponse[] = [];
    for await (const response of model.generateContentAsync(request, true)) responses.push(response);
    expect(responses.slice(0, -1).map((response) => [response.partial, response.content?.parts?.map((part) => Object.keys(part))])).toEqual([
      [true, [["text"]]],
      [true, [["text"]]],
      [true, [["text"]]],
    ]);
    expect(responses.at(-1)).toEqual({
      content: { role: "model", parts: [{ text: "Checking." }, { functionCall: { name: "getWeather", args: { city: "Paris" } } }] },
      partial: false,
    });
  });

  it("waits 12 ms before each response by default, as the AI SDK playbook model does", { timeout: SLOW }, async () => {
    vi.useFakeTimers();
    try {
      const model = createPlaybookLlm({ name: "hello", respond: () => ({ text: "Hello there." }) });
      const request: LlmRequest = { contents: [{ role: "user", parts: [{ text: "hi" }] }], liveConnectConfig: {}, toolsDict: {} };
      const responses = model.generateContentAsync(request, true);
      let first: IteratorResult<LlmResponse> | undefined;
      void responses.next().then((result) => (first = result));
      await vi.advanceTimersByTimeAsync(11);
      expect(first).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(first).toEqual({ done: false, value: { content: { role: "model", parts: [{ text: "Hell" }] }, partial: true } });
    } finally {
      vi.useRealTimers();
    }
  });

  for (const streamingMode of [StreamingMode.SSE, StreamingMode.NONE]) {
    it(`in a real ADK Runner (${streamingMode}): calls the tool, then speaks from its result`, { timeout: SLOW }, async () => {
      const seen: PlaybookConversation[] = [];
      const executed: unknown[] = [];
      const events = await runAgent(weatherPlaybook(seen), streamingMode, executed);
      expect(executed).toEqual([{ city: "Oslo" }]);
      // ADK minted the call's id: the playbook's own "fixed" did not reach it.
      const calls = events.flatMap((event) => (event.content?.parts ?? []).flatMap((part) => (part.functionCall ? [part.functionCall] : [])));
      expect(calls).toEqual([{ name: "getWeather", args: { city: "Oslo" }, id: expect.stringMatching(/^adk-/) }]);
      expect(events.at(-1)?.content?.parts).toEqual([{ text: "It is sunny in Oslo." }]);
      expect(events.some((event) => event.partial)).toBe(streamingMode === StreamingMode.SSE);

      expect(seen).toHaveLength(2);
      expect(seen[0]).toMatchObject({ userText: "what is the weather in Oslo", results: [], tools: ["getWeather"], turnsSinceUser: 0 });
      expect(seen[0]!.system).toContain("Answer with the weather.");
      // The second request's conversation sees the result, paired with its call although ADK stripped the call's id.
      const result = { toolCallId: "", toolName: "getWeather", input: { city: "Oslo" }, output: { sky: "sunny", degrees: 21 }, isError: false };
      expect(seen[1]).toMatchObject({ userText: "what is the weather in Oslo", results: [result], sinceUser: [result], all: [result], turnsSinceUser: 1 });
    });
  }
});
