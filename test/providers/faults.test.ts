import {
  EventType,
  type Message,
  type TextMessageContentEvent,
  type ToolCallArgsEvent,
  type ToolCallResultEvent,
  type ToolCallStartEvent,
} from "@ag-ui/client";
import { LLMock } from "@copilotkit/aimock";
import type { RunRecordDocument } from "@tether-agent/tether/protocol";
import type { RunLogEntry } from "@tether-agent/tether/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_WIRES, type ProviderWire } from "./provider-wires.ts";
import { providerRequests, splitsInsideString, textOf, toolCall } from "./story-fixtures.ts";
import { ofType, parseResult, runAgent, startTetherStack, type RunResult, type TetherStack } from "./tether-stack.ts";
import { startUpstreamTap, type UpstreamTap } from "./upstream-tap.ts";

/**
 * What goes wrong, or gets hard, on a real provider's wire: arguments split
 * anywhere, several calls at once, errors before and during the stream, rate
 * limits. Each provider is reached through a small proxy (the tap) in front
 * of aimock, which can end a stream with the provider's own error event.
 */

const RETRY = { maxRetries: 2, initialDelayMs: 5, maxDelayMs: 25 };

const ASK = {
  awkward: "open the list with the awkward name",
  parallel: "find badge reader requests and the request list",
  mixed: "look the list up and open it at the same time",
  reused: "open the request list, numbering calls from zero",
  errorMidStream: "summarise my open requests",
  dropMidStream: "summarise my closed requests",
  dropBeforeAnswer: "what is the status of R-1046?",
  rateLimitedOnce: "what is the status of R-1042?",
  rateLimited: "what is the status of R-1043?",
  refused: "what is the status of R-1044?",
};

/** Quotes, escapes, a newline and non-ASCII text: one character per chunk cuts through all of them. */
const AWKWARD_ARGUMENTS = {
  screenId: "MNU-3120",
  screenName: 'Liste des demandes — «travaux» "urgent"',
  routeHint: "/work-requests",
  payload: { note: "line one\nline two \\ tab\there é ü 漢字" },
};
const SUMMARY = "You have three open requests: R-1042 (badge reader at Gate 3), R-1045 (air conditioning in room 2.14) and R-1047 (a new monitor).";
const PROVIDER_OVERLOADED = "The server is overloaded right now; please retry in a few seconds.";

function addFaultFixtures(mock: LLMock, wire: ProviderWire) {
  const model = wire.modelId;
  const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.awkward), hasToolResult: false },
    response: { toolCalls: [toolCall(wire, "navigateToScreen", AWKWARD_ARGUMENTS)] },
    chunkSize: 1,
  });

  mock.addFixture({
    match: { model, userMessage: exactly(ASK.parallel), hasToolResult: true },
    response: { content: "R-1042 is about the badge reader; the list has the rest." },
  });
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.parallel), hasToolResult: false },
    response: { toolCalls: [toolCall(wire, "searchWorkRequests", { query: "badge reader" }), toolCall(wire, "lookupScreens", { query: "work request list" })] },
    chunkSize: 5,
  });

  // A server tool and a browser tool in one step: Tether runs one, the browser the other, and both answers go back together.
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.mixed), hasToolResult: true, toolResultContains: '"displayed"' },
    response: { content: "It is open." },
  });
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.mixed), hasToolResult: false },
    response: { toolCalls: [toolCall(wire, "lookupScreens", { query: "work request list" }), toolCall(wire, "navigateToScreen", { screenId: "MNU-3120" })] },
    chunkSize: 5,
  });

  // An Ollama-style server numbers its calls from zero in every response, so ids repeat across steps.
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.reused), toolResultContains: '"MNU-3120"' },
    response: { toolCalls: [{ name: "navigateToScreen", arguments: JSON.stringify({ screenId: "MNU-3120" }), id: "call_0" }] },
  });
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.reused), hasToolResult: false },
    response: { toolCalls: [{ name: "lookupScreens", arguments: JSON.stringify({ query: "request list" }), id: "call_0" }] },
  });

  mock.addFixture({ match: { model, userMessage: exactly(ASK.errorMidStream) }, response: { content: SUMMARY }, chunkSize: 8 });
  // A pause between chunks lets the first ones reach the client before the drop (aimock writes a paceless stream in one go).
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.dropMidStream) },
    response: { content: SUMMARY },
    chunkSize: 8,
    truncateAfterChunks: 4,
    latency: 2,
  });
  // The first attempt's connection is dropped before any answer (aimock's chaos `disconnect`); the second is answered.
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.dropBeforeAnswer), sequenceIndex: 0 },
    response: { content: "R-1046 is closed." },
    chaos: { disconnectRate: 1 },
  });
  mock.addFixture({ match: { model, userMessage: exactly(ASK.dropBeforeAnswer), sequenceIndex: 1 }, response: { content: "R-1046 is closed." } });
  mock.addFixture({ match: { model, userMessage: exactly(ASK.rateLimitedOnce) }, response: { content: "R-1042 is waiting for approval." } });
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.rateLimited) },
    response: { error: { message: "You exceeded your current quota for this model.", type: "rate_limit_error" }, status: 429, retryAfter: 0 },
  });
  mock.addFixture({
    match: { model, userMessage: exactly(ASK.refused) },
    response: { error: { message: "tools.0.input_schema: JSON schema is invalid.", type: "invalid_request_error" }, status: 400 },
  });
}

const mock = new LLMock({ port: 0 });
let tap: UpstreamTap;

beforeAll(async () => {
  for (const wire of PROVIDER_WIRES) addFaultFixtures(mock, wire);
  await mock.start();
  tap = await startUpstreamTap(mock.url);
});
afterAll(async () => {
  await tap.close();
  await mock.stop();
});

describe.each(PROVIDER_WIRES)("model faults over $name", (wire) => {
  let stack: TetherStack;
  beforeAll(async () => {
    stack = await startTetherStack(await wire.model(tap.url), { retry: RETRY });
  });
  afterAll(async () => {
    await stack.close();
  });

  async function ask(threadId: string, text: string): Promise<{ result: RunResult; messages: Message[] }> {
    const agent = stack.agent(`${threadId}-${wire.name}`);
    agent.addMessage({ id: `${threadId}-${wire.name}-u1`, role: "user", content: text });
    const result = await runAgent(agent);
    return { result, messages: agent.messages };
  }
  const requestsSince = (count: number) => providerRequests(mock, wire).slice(count);
  const recordDocument = async (result: RunResult): Promise<RunRecordDocument> => (await stack.api(`/runs/${result.events[0]!.runId as string}/record`)).json();
  const log = async (result: RunResult) =>
    (await stack.storedRun(result.events[0]!.runId as string)).log.filter((entry: RunLogEntry) => entry.code === "model_retry");

  it("passes tool arguments on as the provider streams them, down to one character at a time through quotes, escapes and non-ASCII text", async () => {
    const { result, messages } = await ask("awkward", ASK.awkward);
    expect(result.failed).toBeUndefined();
    const [start] = ofType<ToolCallStartEvent>(result, EventType.TOOL_CALL_START) as [ToolCallStartEvent];
    const deltas = ofType<ToolCallArgsEvent>(result, EventType.TOOL_CALL_ARGS).map((event) => event.delta);
    const sent = JSON.stringify(AWKWARD_ARGUMENTS);
    expect(deltas.join("")).toBe(sent);
    if (wire.streamsToolArguments) {
      expect(deltas).toEqual([...sent]);
      expect(splitsInsideString(deltas)).toBe(true);
    } else {
      expect(deltas).toEqual([sent]);
    }
    const call = messages
      .flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))
      .find((candidate) => candidate.id === start.toolCallId);
    expect(JSON.parse(call!.function.arguments)).toEqual(AWKWARD_ARGUMENTS);
    // The arguments passed the browser tool's schema: the call waits for the browser.
    expect(result.finished!.outcome).toEqual({ type: "success", pendingToolCallIds: [start.toolCallId] });
  });

  it("runs parallel tool calls and pairs each result with its own call, in the events and in what goes back to the provider", async () => {
    const before = providerRequests(mock, wire).length;
    const { result, messages } = await ask("parallel", ASK.parallel);
    expect(result.failed).toBeUndefined();
    expect(result.finished!.outcome).toEqual({ type: "success" });

    const starts = ofType<ToolCallStartEvent>(result, EventType.TOOL_CALL_START);
    expect(starts.map((event) => event.toolCallName)).toEqual(["searchWorkRequests", "lookupScreens"]);
    const [search, lookup] = starts as [ToolCallStartEvent, ToolCallStartEvent];
    expect(search.toolCallId).not.toBe(lookup.toolCallId);
    expect(search.parentMessageId).toBe(lookup.parentMessageId);
    if (wire.toolCallId("lookupScreens"))
      expect([search.toolCallId, lookup.toolCallId]).toEqual([wire.toolCallId("searchWorkRequests"), wire.toolCallId("lookupScreens")]);

    // Each call's streamed arguments went to that call.
    const argumentsOf = (toolCallId: string) =>
      JSON.parse(
        ofType<ToolCallArgsEvent>(result, EventType.TOOL_CALL_ARGS)
          .filter((event) => event.toolCallId === toolCallId)
          .map((event) => event.delta)
          .join(""),
      );
    expect(argumentsOf(search.toolCallId)).toEqual({ query: "badge reader" });
    expect(argumentsOf(lookup.toolCallId)).toEqual({ query: "work request list" });

    // Each result answers its own call.
    const results = new Map(ofType<ToolCallResultEvent>(result, EventType.TOOL_CALL_RESULT).map((event) => [event.toolCallId, parseResult(event)]));
    expect(results.get(search.toolCallId)).toMatchObject({ total: 1, requests: [{ id: "R-1042" }] });
    expect(results.get(lookup.toolCallId).candidates[0].screenId).toBe("MNU-3120");

    // The provider got both calls back, each answered by its own result.
    const requests = requestsSince(before);
    expect(requests).toHaveLength(2);
    const history = requests[1]!.body.messages;
    const calls = history.findLast((message) => message.role === "assistant")!.tool_calls!;
    expect(calls.map((call) => call.function.name)).toEqual(["searchWorkRequests", "lookupScreens"]);
    const answers = history.filter((message) => message.role === "tool");
    expect(answers).toHaveLength(2);
    for (const answer of answers) {
      const call = calls.find((candidate) => candidate.id === answer.tool_call_id);
      expect(call, `a call for result ${answer.tool_call_id}`).toBeDefined();
      expect(textOf(answer)).toContain(call!.function.name === "searchWorkRequests" ? '"R-1042"' : '"MNU-3120"');
    }
    if (wire.toolCallId("lookupScreens")) expect(calls.map((call) => call.id)).toEqual([search.toolCallId, lookup.toolCallId]);
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "R-1042 is about the badge reader; the list has the rest." });
  });

  it("pairs a server result and the browser's outcome with their calls when one step makes both", async () => {
    const threadId = `mixed-${wire.name}`;
    const agent = stack.agent(threadId);
    agent.addMessage({ id: `${threadId}-u1`, role: "user", content: ASK.mixed });
    const first = await runAgent(agent);
    expect(first.failed).toBeUndefined();
    const [lookup, navigate] = ofType<ToolCallStartEvent>(first, EventType.TOOL_CALL_START) as [ToolCallStartEvent, ToolCallStartEvent];
    expect([lookup.toolCallName, navigate.toolCallName]).toEqual(["lookupScreens", "navigateToScreen"]);
    expect(ofType<ToolCallResultEvent>(first, EventType.TOOL_CALL_RESULT).map((event) => event.toolCallId)).toEqual([lookup.toolCallId]);
    expect(first.finished!.outcome).toEqual({ type: "success", pendingToolCallIds: [navigate.toolCallId] });

    const before = providerRequests(mock, wire).length;
    agent.addMessage({
      id: `${threadId}-outcome`,
      role: "tool",
      toolCallId: navigate.toolCallId,
      content: JSON.stringify({ status: "succeeded", stage: "displayed" }),
    });
    const parentRunId = first.finished!.runId;
    const second = await runAgent(agent, { forwardedProps: { tether: { trigger: { kind: "tool-result", parentRunId, toolCallIds: [navigate.toolCallId] } } } });
    expect(second.failed).toBeUndefined();
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "It is open." });

    // The provider sees one assistant turn with both calls, then both answers, each with its own call.
    const requests = requestsSince(before);
    expect(requests).toHaveLength(1);
    const history = requests[0]!.body.messages;
    expect(history.slice(-3).map((message) => message.role)).toEqual(["assistant", "tool", "tool"]);
    const calls = history.at(-3)!.tool_calls!;
    expect(calls.map((call) => call.function.name)).toEqual(["lookupScreens", "navigateToScreen"]);
    const answers = history.slice(-2);
    for (const answer of answers) {
      const call = calls.find((candidate) => candidate.id === answer.tool_call_id);
      expect(textOf(answer)).toContain(call!.function.name === "lookupScreens" ? '"candidates"' : '"displayed"');
    }
    if (wire.toolCallId("lookupScreens")) expect(answers.map((answer) => answer.tool_call_id)).toEqual([lookup.toolCallId, navigate.toolCallId]);
  });

  it("gives a call a fresh id when the provider reuses one the thread already has", async () => {
    const before = providerRequests(mock, wire).length;
    const { result } = await ask("reused", ASK.reused);
    expect(result.failed).toBeUndefined();
    const [lookup, navigate] = ofType<ToolCallStartEvent>(result, EventType.TOOL_CALL_START) as [ToolCallStartEvent, ToolCallStartEvent];
    expect(lookup.toolCallId).toBe("call_0");
    expect(navigate.toolCallId).not.toBe("call_0");
    expect(result.finished!.outcome).toEqual({ type: "success", pendingToolCallIds: [navigate.toolCallId] });
    // The second request still pairs the lookup's result with the lookup.
    const requests = requestsSince(before);
    expect(requests).toHaveLength(2);
    if (wire.name !== "google") expect(requests[1]!.body.messages.at(-1)).toMatchObject({ role: "tool", tool_call_id: "call_0" });
  });

  it("ends the run with RUN_ERROR when the provider sends an error event mid-stream, the provider's message in neither it nor the record", async () => {
    const before = providerRequests(mock, wire).length;
    tap.cutNextStream({ afterFrames: 4, frame: wire.errorFrame(PROVIDER_OVERLOADED) });
    const { result } = await ask("error-mid-stream", ASK.errorMidStream);
    const types = result.events.map((event) => event.type);
    // The text so far was streamed and closed before the error; nothing follows it.
    expect(types).toContain(EventType.TEXT_MESSAGE_CONTENT);
    expect(types.slice(-2)).toEqual([EventType.TEXT_MESSAGE_END, EventType.RUN_ERROR]);
    expect(result.runError).toMatchObject({ code: "model_error" });
    expect(result.runError!.message).not.toContain(PROVIDER_OVERLOADED);
    expect(JSON.stringify(await recordDocument(result))).not.toContain(PROVIDER_OVERLOADED);
    // An error after the stream opened is not retried: its events already reached the client.
    expect(requestsSince(before)).toHaveLength(1);

    const run = await stack.storedRun(result.events[0]!.runId as string);
    expect(run).toMatchObject({ status: "error", error: { code: "model_error" } });
    // What the model said before the error stays in the thread, as the client saw it.
    const said = ofType<TextMessageContentEvent>(result, EventType.TEXT_MESSAGE_CONTENT)
      .map((event) => event.delta)
      .join("");
    expect(SUMMARY.startsWith(said)).toBe(true);
    const thread = await (await stack.api(`/threads/error-mid-stream-${wire.name}`)).json();
    expect(thread.messages.at(-1)).toMatchObject({ role: "assistant", content: said });
  });

  // The OpenAI, Anthropic and OpenAI-compatible SDKs report a mid-stream error event as a plain
  // object ({ message, type, … }), not an Error; Tether still words it, and the record says what kind it was.
  it("words a mid-stream provider error in Tether's words for the client and the record, with the kind of failure it was", async () => {
    tap.cutNextStream({ afterFrames: 4, frame: wire.errorFrame(PROVIDER_OVERLOADED) });
    const { result } = await ask("error-mid-stream-words", ASK.errorMidStream);
    expect(result.runError!.message).toMatch(/^The model provider failed: /);
    expect(result.runError!.message).not.toContain(PROVIDER_OVERLOADED);
    const { provider } = (await recordDocument(result)).modelCalls.at(-1)!.error!;
    expect(provider).toMatchObject({ failure: expect.any(String) });
    expect(provider).not.toHaveProperty("message");
  });

  it("ends the run with model_error when the provider's connection drops mid-stream", async () => {
    const before = providerRequests(mock, wire).length;
    const { result } = await ask("drop-mid-stream", ASK.dropMidStream);
    const types = result.events.map((event) => event.type);
    // Part of the answer arrived and was closed; then the run failed.
    expect(types).toContain(EventType.TEXT_MESSAGE_CONTENT);
    expect(types.slice(-2)).toEqual([EventType.TEXT_MESSAGE_END, EventType.RUN_ERROR]);
    expect(result.runError).toMatchObject({ code: "model_error" });
    expect(result.runError!.message).toMatch(/^The model (provider )?failed/);
    // Not retried either: part of the answer had already gone to the client.
    expect(requestsSince(before)).toHaveLength(1);
  });

  it("tries again when the provider's connection drops before any answer, and finishes the run", async () => {
    const before = providerRequests(mock, wire).length;
    const { result, messages } = await ask("drop-before-answer", ASK.dropBeforeAnswer);
    expect(result.runError).toBeUndefined();
    expect(result.finished!.outcome).toEqual({ type: "success" });
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "R-1046 is closed." });
    expect(requestsSince(before).map((request) => request.status)).toEqual([0, 200]);
    const retries = await log(result);
    expect(retries).toHaveLength(1);
    // No Retry-After to follow: the agent's first pause.
    expect(retries[0]!.message).toMatch(/attempt 2 in 5 ms/);
  });

  it("tries again after a 429, after the pause its Retry-After asks for (capped), and finishes the run", async () => {
    const before = providerRequests(mock, wire).length;
    mock.nextRequestError(429, { message: "Rate limit reached for requests per minute.", type: "rate_limit_error" });
    const { result, messages } = await ask("rate-limited-once", ASK.rateLimitedOnce);
    expect(result.failed).toBeUndefined();
    expect(result.runError).toBeUndefined();
    expect(result.finished!.outcome).toEqual({ type: "success" });
    expect(messages.at(-1)).toMatchObject({ role: "assistant", content: "R-1042 is waiting for approval." });
    expect(requestsSince(before).map((request) => request.status)).toEqual([429, 200]);

    // aimock's Retry-After is 1 s; the agent's maxDelayMs (25 ms) caps it, and the run's log says so.
    const retries = await log(result);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ level: "warn", code: "model_retry" });
    expect(retries[0]!.message).toContain("HTTP 429");
    expect(retries[0]!.message).toContain("Rate limit reached for requests per minute.");
    expect(retries[0]!.message).toMatch(/attempt 2 in 25 ms/);
  });

  it("gives up with model_rate_limited when the provider keeps answering 429", async () => {
    const before = providerRequests(mock, wire).length;
    const { result } = await ask("rate-limited", ASK.rateLimited);
    expect(result.events.at(-1)!.type).toBe(EventType.RUN_ERROR);
    expect(result.runError).toMatchObject({ code: "model_rate_limited" });
    expect(result.runError!.message).toContain("HTTP 429");
    expect(result.runError!.message).not.toContain("You exceeded your current quota");
    expect((await recordDocument(result)).modelCalls.at(-1)!.error).toMatchObject({
      code: "model_rate_limited",
      provider: { statusCode: 429, failure: "rate_limit" },
    });
    expect(requestsSince(before).map((request) => request.status)).toEqual([429, 429, 429]);
    expect(await log(result)).toHaveLength(2);
    expect((await stack.storedRun(result.events[0]!.runId as string)).error).toMatchObject({ code: "model_rate_limited" });
  });

  it("does not retry a request the provider refused as invalid, and reports it as model_error", async () => {
    const before = providerRequests(mock, wire).length;
    const { result } = await ask("refused", ASK.refused);
    expect(result.runError).toMatchObject({ code: "model_error" });
    expect(result.runError!.message).toContain("HTTP 400");
    expect(result.runError!.message).not.toContain("input_schema");
    expect((await recordDocument(result)).modelCalls.at(-1)!.error!.provider).toEqual({
      statusCode: 400,
      failure: "bad_request",
    });
    expect(requestsSince(before).map((request) => request.status)).toEqual([400]);
    expect(await log(result)).toEqual([]);
  });
});
