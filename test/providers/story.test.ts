import { EventType, type HttpAgent, type Message, type ToolCallArgsEvent, type ToolCallResultEvent, type ToolCallStartEvent } from "@ag-ui/client";
import { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_WIRES } from "./provider-wires.ts";
import { STORY, addStoryFixtures, providerRequests, splitsInsideString, textOf } from "./story-fixtures.ts";
import { ofType, parseResult, runAgent, startTetherStack, type RunResult, type TetherStack } from "./tether-stack.ts";

/**
 * The Workdesk story against aimock speaking each provider's wire protocol,
 * with Tether configured exactly as `TETHER_MODEL` configures it and driven
 * by the unmodified AG-UI HttpAgent.
 */

const mock = new LLMock({ port: 0 });

beforeAll(async () => {
  for (const wire of PROVIDER_WIRES) addStoryFixtures(mock, wire);
  await mock.start();
});
afterAll(async () => {
  await mock.stop();
});

const lastAssistantText = (messages: Message[]) =>
  (messages.filter((message) => message.role === "assistant" && message.content).at(-1)?.content as string | undefined) ?? "";

describe.each(PROVIDER_WIRES)("the Workdesk story over $name", (wire) => {
  let stack: TetherStack;
  beforeAll(async () => {
    stack = await startTetherStack(await wire.model(mock.url));
  });
  afterAll(async () => {
    await stack.close();
  });

  /** The story's first run: the lookup on the server, then navigateToScreen left to the browser. */
  async function askForTheList(threadId: string): Promise<{ agent: HttpAgent; first: RunResult }> {
    const agent = stack.agent(threadId);
    agent.addMessage({ id: `${threadId}-u1`, role: "user", content: STORY.ask });
    return { agent, first: await runAgent(agent) };
  }

  /** The continuation run carrying the browser's outcome for the pending call. */
  async function reportOutcome(agent: HttpAgent, first: RunResult, outcome: unknown): Promise<RunResult> {
    const [toolCallId] = first.pendingToolCallIds as [string];
    agent.addMessage({ id: `${agent.threadId}-outcome`, role: "tool", toolCallId, content: JSON.stringify(outcome) });
    const parentRunId = first.finished!.runId;
    return runAgent(agent, { forwardedProps: { tether: { trigger: { kind: "tool-result", parentRunId, toolCallIds: [toolCallId] } } } });
  }

  it("runs lookupScreens on the server, sends its result back to the provider, and leaves navigateToScreen MNU-3120 pending", async () => {
    const before = providerRequests(mock, wire).length;
    const { agent, first } = await askForTheList(`story-${wire.name}-1`);
    expect(first.failed).toBeUndefined();
    expect(first.runError).toBeUndefined();
    expect(first.events[0]!.type).toBe(EventType.RUN_STARTED);
    expect(first.events.at(-1)!.type).toBe(EventType.RUN_FINISHED);

    // Two model calls: the lookup, then (with its result) the navigation.
    const requests = providerRequests(mock, wire).slice(before);
    expect(requests.map((request) => request.status)).toEqual([200, 200]);
    expect(requests[0]!.body.tools?.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(["lookupScreens", "navigateToScreen", "searchWorkRequests"]),
    );

    const starts = ofType<ToolCallStartEvent>(first, EventType.TOOL_CALL_START);
    expect(starts.map((event) => event.toolCallName)).toEqual(["lookupScreens", "navigateToScreen"]);
    const [lookup, navigate] = starts as [ToolCallStartEvent, ToolCallStartEvent];
    // The provider's own ids reach the browser unchanged; where the wire carries none, the SDK's stand in.
    if (wire.toolCallId("lookupScreens")) {
      expect([lookup.toolCallId, navigate.toolCallId]).toEqual([wire.toolCallId("lookupScreens"), wire.toolCallId("navigateToScreen")]);
    } else {
      expect(lookup.toolCallId).toMatch(/\S/);
      expect(navigate.toolCallId).toMatch(/\S/);
      expect(navigate.toolCallId).not.toBe(lookup.toolCallId);
    }

    // Tether ran the lookup and told the provider what it found, answering the provider's call.
    const lookupResult = ofType<ToolCallResultEvent>(first, EventType.TOOL_CALL_RESULT).find((event) => event.toolCallId === lookup.toolCallId);
    expect(parseResult(lookupResult).candidates[0].screenId).toBe("MNU-3120");
    const secondRequest = requests[1]!.body.messages;
    const answer = secondRequest.at(-1)!;
    expect(answer.role).toBe("tool");
    expect(textOf(answer)).toContain('"screenId":"MNU-3120"');
    const askedFor = secondRequest.findLast((message) => message.role === "assistant")!.tool_calls!;
    expect(askedFor.map((call) => [call.function.name, JSON.parse(call.function.arguments)])).toEqual([["lookupScreens", STORY.lookupArguments]]);
    if (wire.toolCallId("lookupScreens")) {
      expect(askedFor[0]!.id).toBe(lookup.toolCallId);
      expect(answer.tool_call_id).toBe(lookup.toolCallId);
    }

    // The navigation's arguments streamed as the provider streamed them, cut in the middle of strings.
    const deltas = ofType<ToolCallArgsEvent>(first, EventType.TOOL_CALL_ARGS)
      .filter((event) => event.toolCallId === navigate.toolCallId)
      .map((event) => event.delta);
    expect(deltas.join("")).toBe(JSON.stringify(STORY.navigateArguments));
    if (wire.streamsToolArguments) {
      expect(deltas.length).toBeGreaterThan(5);
      expect(splitsInsideString(deltas)).toBe(true);
    } else {
      expect(deltas).toHaveLength(1); // Gemini sends a function call whole
    }
    const call = agent.messages
      .flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))
      .find((candidate) => candidate.id === navigate.toolCallId);
    expect(JSON.parse(call!.function.arguments)).toEqual(STORY.navigateArguments);

    // Pending for the browser: no result for it, and the run says so.
    expect(first.finished!.outcome).toEqual({ type: "success", pendingToolCallIds: [navigate.toolCallId] });
    expect(first.pendingToolCallIds).toEqual([navigate.toolCallId]);
    expect(first.events.some((event) => event.type === EventType.TOOL_CALL_RESULT && (event as ToolCallResultEvent).toolCallId === navigate.toolCallId)).toBe(
      false,
    );
    expect(lastAssistantText(agent.messages)).toBe(STORY.opening);

    // Who served the run is on RUN_FINISHED whatever the provider reports about tokens.
    expect(first.finished!.usage).toMatchObject([{ provider: wire.sdkProvider, model: wire.modelId }]);
  });

  it("answers from the browser's displayed outcome in a continuation run", async () => {
    const { agent, first } = await askForTheList(`story-${wire.name}-2`);
    const before = providerRequests(mock, wire).length;
    const second = await reportOutcome(agent, first, { status: "succeeded", stage: "displayed", data: { route: "/work-requests" } });
    expect(second.failed).toBeUndefined();
    expect(second.finished!.outcome).toEqual({ type: "success" });
    expect(lastAssistantText(agent.messages)).toBe(STORY.opened);
    expect(second.finished!.usage).toMatchObject([{ provider: wire.sdkProvider, model: wire.modelId }]);

    // The provider got the whole thread: the ask, the lookup and its result, the navigation and the browser's outcome.
    const requests = providerRequests(mock, wire).slice(before);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "assistant", "tool"]);
    const outcome = requests[0]!.body.messages.at(-1)!;
    expect(JSON.parse(textOf(outcome))).toMatchObject(
      wire.name === "google" ? { content: { status: "succeeded", stage: "displayed" } } : { status: "succeeded", stage: "displayed" },
    );
    if (wire.toolCallId("navigateToScreen")) expect(outcome.tool_call_id).toBe(first.pendingToolCallIds[0]);
  });

  // OpenAI-compatible servers stream usage only when asked (stream_options.include_usage).
  it("puts the token counts the provider reported for each model call, summed, on RUN_FINISHED", async () => {
    const { first } = await askForTheList(`story-${wire.name}-usage`);
    const { lookup, navigate } = STORY.usage;
    const inputTokens = lookup.input_tokens + navigate.input_tokens;
    const outputTokens = lookup.output_tokens + navigate.output_tokens;
    expect(first.finished!.usage).toHaveLength(1);
    expect(first.finished!.usage![0]).toMatchObject({
      provider: wire.sdkProvider,
      model: wire.modelId,
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
    });
  });

  it("says the screen could not be opened when the browser reports access_denied", async () => {
    const { agent, first } = await askForTheList(`story-${wire.name}-3`);
    const second = await reportOutcome(agent, first, { status: "failed", stage: "requested", reason: "access_denied" });
    expect(second.failed).toBeUndefined();
    expect(second.finished!.outcome).toEqual({ type: "success" });
    expect(lastAssistantText(agent.messages)).toBe(STORY.denied);
  });
});
