import { EventType, type BaseEvent, type ToolCallEndEvent, type ToolCallResultEvent, type ToolCallStartEvent } from "@ag-ui/client";
import { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDER_WIRES, type ProviderWire } from "./provider-wires.ts";
import { toolCall } from "./story-fixtures.ts";
import { ofType, parseResult, runAgent, startTetherStack, type RunParameters, type RunResult, type TetherStack } from "./tether-stack.ts";
import { startUpstreamTap, type TappedExchange, type UpstreamTap } from "./upstream-tap.ts";

/**
 * A cancelled run closes its model call. aimock streams slowly (a pause
 * before every chunk), and the tap in front of it records whether Tether
 * hung up before the stream was over: aimock's journal cannot say, since it
 * goes on writing into a closed socket.
 */

const ASK = {
  text: "tell me about every open request",
  toolCall: "open the work request list, and take your time",
};
const LONG_ANSWER = "R-1042: the badge reader at Gate 3 is broken and waits for approval. ".repeat(4);
const NAVIGATION = { screenId: "MNU-3120", screenName: "Work request list", routeHint: "/work-requests", orgScope: "ORG-01" };
const PAUSE_MS = 15;
const TEXT_CHUNK = 8;
const ARGUMENTS_CHUNK = 4;

function addSlowFixtures(mock: LLMock, wire: ProviderWire) {
  const model = wire.modelId;
  mock.addFixture({ match: { model, userMessage: ASK.text }, response: { content: LONG_ANSWER }, chunkSize: TEXT_CHUNK, latency: PAUSE_MS });
  mock.addFixture({
    match: { model, userMessage: ASK.toolCall },
    response: { toolCalls: [toolCall(wire, "navigateToScreen", NAVIGATION)] },
    chunkSize: ARGUMENTS_CHUNK,
    latency: PAUSE_MS,
  });
}

const mock = new LLMock({ port: 0 });
let tap: UpstreamTap;

beforeAll(async () => {
  for (const wire of PROVIDER_WIRES) addSlowFixtures(mock, wire);
  await mock.start();
  tap = await startUpstreamTap(mock.url);
});
afterAll(async () => {
  await tap.close();
  await mock.stop();
});

describe.each(PROVIDER_WIRES)("cancelling a run over $name", (wire) => {
  let stack: TetherStack;
  beforeAll(async () => {
    stack = await startTetherStack(await wire.model(tap.url));
  });
  afterAll(async () => {
    await stack.close();
  });

  /** Starts a run and resolves once `ready` has seen the model's stream begin, with the model call in flight. */
  async function startRun(name: string, ask: string, ready: EventType, parameters: RunParameters = {}) {
    const threadId = `${name}-${wire.name}`;
    const runId = `${threadId}-run`;
    const agent = stack.agent(threadId);
    agent.addMessage({ id: `${threadId}-u1`, role: "user", content: ask });
    let streaming!: () => void;
    const begun = new Promise<void>((resolve) => (streaming = resolve));
    const running = runAgent(agent, { runId, ...parameters }, (event: BaseEvent) => {
      if (event.type === ready) streaming();
    });
    // A run that ends without streaming lets the test go on to fail on what it finds, rather than wait forever.
    void running.finally(streaming);
    await begun;
    const exchange = tap.exchanges.findLast(
      (candidate) => candidate.body.includes(ask) && (candidate.path + candidate.body).includes(wire.modelId),
    ) as TappedExchange;
    return { agent, runId, running, exchange };
  }

  /** Tether hung up on the model call part-way: fewer than `frames` of the answer's frames went through, and it never completed. */
  async function expectClosedEarly(exchange: TappedExchange, frames: number) {
    await exchange.ended;
    expect(exchange.abortedByCaller).toBe(true);
    expect(exchange.completed).toBe(false);
    expect(exchange.framesForwarded).toBeLessThan(frames);
  }
  const textFrames = Math.ceil(LONG_ANSWER.length / TEXT_CHUNK);

  it("closes the model call when the run is cancelled with POST /api/runs/:runId/cancel", async () => {
    const { runId, running, exchange } = await startRun("cancel", ASK.text, EventType.TEXT_MESSAGE_CONTENT);
    const response = await stack.api(`/runs/${runId}/cancel`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(response.status).toBe(202);
    const result: RunResult = await running;

    expect(result.failed).toBeUndefined();
    expect(result.finished!.outcome).toEqual({ type: "cancelled" });
    await expectClosedEarly(exchange, textFrames);
    expect((await stack.storedRun(runId)).status).toBe("cancelled");
  });

  it("closes the model call when the client goes away from a run that asked for cancelOnDisconnect", async () => {
    const { agent, runId, running, exchange } = await startRun("disconnect", ASK.text, EventType.TEXT_MESSAGE_CONTENT, {
      forwardedProps: { tether: { cancelOnDisconnect: true } },
    });
    agent.abortRun();
    await running;
    await expectClosedEarly(exchange, textFrames);
    await stack.tether.runner.settled(runId);
    expect(await stack.storedRun(runId)).toMatchObject({ status: "cancelled", outcome: { type: "cancelled" } });
  });

  it("lets the model call finish when the client goes away from a run that did not ask for cancellation", async () => {
    const { agent, runId, running, exchange } = await startRun("outlive", ASK.text, EventType.TEXT_MESSAGE_CONTENT);
    agent.abortRun();
    await running;
    await stack.tether.runner.settled(runId);
    await exchange.ended;
    expect(exchange).toMatchObject({ completed: true, abortedByCaller: false });
    expect(await stack.storedRun(runId)).toMatchObject({ status: "finished", outcome: { type: "success" } });
    const thread = await (await stack.api(`/threads/outlive-${wire.name}`)).json();
    expect(thread.messages.at(-1)).toMatchObject({ role: "assistant", content: LONG_ANSWER });
  });

  it.skipIf(!wire.streamsToolArguments)("closes the model call mid tool-call arguments and still ends the stream validly", async () => {
    const { runId, running, exchange } = await startRun("cancel-arguments", ASK.toolCall, EventType.TOOL_CALL_ARGS);
    await stack.api(`/runs/${runId}/cancel`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const result = await running;

    // The unmodified HttpAgent verified the stream: the open call was ended and answered before RUN_FINISHED.
    expect(result.failed).toBeUndefined();
    const [start] = ofType<ToolCallStartEvent>(result, EventType.TOOL_CALL_START) as [ToolCallStartEvent];
    expect(ofType<ToolCallEndEvent>(result, EventType.TOOL_CALL_END).map((event) => event.toolCallId)).toEqual([start.toolCallId]);
    const [answer] = ofType<ToolCallResultEvent>(result, EventType.TOOL_CALL_RESULT);
    expect(answer).toMatchObject({ toolCallId: start.toolCallId });
    expect(parseResult(answer)).toMatchObject({ error: { code: "run_cancelled" } });
    expect(result.finished!.outcome).toEqual({ type: "cancelled" });
    await expectClosedEarly(exchange, Math.ceil(JSON.stringify(NAVIGATION).length / ARGUMENTS_CHUNK));
  });
});
