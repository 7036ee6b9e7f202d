import { AGUIMock, type AGUIEvent } from "@copilotkit/aimock";
import { HttpAgent as HttpAgent1 } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { createCountingIds, parseSseFrames } from "@tether-agent/tether/testing";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { listen, type Listening } from "@tether-agent/tether/node";
import { EventSchemas, EventType, HttpAgent, type BaseEvent, type Message } from "ag-ui-client-0.0";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { agentFailures } from "../helpers/agent-failures.ts";
import { navigateToScreen, saying, upstreamRun } from "./aimock-events.ts";

/**
 * AG-UI 0.0.x on both sides of Tether in front of an upstream agent: a 0.0.x
 * client (the packages CopilotKit 1.75 pins) plays the two-turn story through
 * `?compat=ag-ui-0.0`, and an upstream that speaks 0.0.x (THINKING_* events,
 * null where 1.0 wants a field absent) is read as 1.0 on the way in.
 */

const tools = [toAgUiTool(navigateToScreen)];
const COMPAT = "?compat=ag-ui-0.0";

const navigate = (toolCallId: string, parentMessageId?: string | null): AGUIEvent[] => [
  { type: "TOOL_CALL_START", toolCallId, toolCallName: "navigateToScreen", parentMessageId } as AGUIEvent,
  { type: "TOOL_CALL_ARGS", toolCallId, delta: JSON.stringify({ screenId: "orders" }) },
  { type: "TOOL_CALL_END", toolCallId },
];

const upstream = new AGUIMock({ port: 0 });
const store = createMemoryRunStore();
let tether: TetherApp;
let server: Listening;

beforeAll(async () => {
  // The story, from an upstream that speaks 1.0: it asks the browser to open the orders, then speaks from the outcome.
  upstream.addFixture({ match: { toolCallId: "up_nav_1" }, events: upstreamRun("up-2", saying("up-msg-2", "The orders are open.")) });
  upstream.addFixture({
    match: { message: "open the orders" },
    events: upstreamRun("up-1", [...saying("up-msg", "Opening the orders…"), ...navigate("up_nav_1", "up-msg")]),
  });
  // The same first turn from an upstream that speaks 0.0.x: it thinks aloud in THINKING_*, and says null for "none".
  upstream.addFixture({
    match: { message: "think first, then go" },
    events: [
      { type: "RUN_STARTED", threadId: "upstream-thread", runId: "up-3" },
      { type: "THINKING_START", title: "Where to go" },
      { type: "THINKING_TEXT_MESSAGE_START" },
      { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "The user wants the orders." },
      { type: "THINKING_TEXT_MESSAGE_END" },
      { type: "THINKING_END" },
      ...saying("up-msg-3", "Opening the orders…"),
      ...navigate("up_nav_3", null),
      { type: "RUN_FINISHED", threadId: "upstream-thread", runId: "up-3", result: null, rawEvent: null } as AGUIEvent,
    ],
  });
  await upstream.start();
  tether = await createTetherApp({
    agents: [defineAgent({ id: "front", upstream: { url: upstream.url }, browserTools: [navigateToScreen] })],
    authenticate: () => ({ id: "kim" }),
    store,
    logger: silentLogger,
    ids: createCountingIds("t_"),
  });
  server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
});

afterAll(async () => {
  await server?.close();
  await tether?.close();
  await upstream.stop();
});

interface Seen {
  events: BaseEvent[];
  failed?: Error;
}

async function runAgent(agent: HttpAgent): Promise<Seen> {
  const seen: Seen = { events: [] };
  await agent
    .runAgent({ tools }, { onEvent: ({ event }) => void seen.events.push(event), onRunFailed: ({ error }) => void (seen.failed = error) })
    .catch((error: Error) => (seen.failed ??= error));
  return seen;
}

const pendingEvent = (seen: Seen) =>
  seen.events.find((event) => event.type === EventType.CUSTOM && (event as { name?: string }).name === "tether.pending_tool_calls");
const lastText = (messages: Message[]) => messages.filter((message) => message.role === "assistant" && message.content).at(-1)?.content;

describe("an AG-UI 0.0.x client in front of an upstream agent, with ?compat=ag-ui-0.0", () => {
  const failures = agentFailures();
  const agent0 = (threadId: string, query = COMPAT) => new HttpAgent({ url: `${server.url}/api/agents/front/run${query}`, threadId });

  it("fails on the first turn without it: the upstream's pending browser call is in the 1.0 outcome", async () => {
    const agent = agent0("plain-0", "");
    agent.addMessage({ id: "plain-0-u1", role: "user", content: "open the orders" });
    const seen = await runAgent(agent);
    expect(String(seen.failed)).toMatch(/unrecognized_keys[\s\S]*pendingToolCallIds/);
    expect(failures.take()).toEqual([seen.failed]);
  });

  it("plays the two-turn story: the upstream's browser call travels in a CUSTOM event, the client answers, the upstream speaks; every event passes the 0.0.x schemas", async () => {
    const agent = agent0("story-0");
    agent.addMessage({ id: "story-0-u1", role: "user", content: "open the orders" });
    const first = await runAgent(agent);
    expect(first.failed).toBeUndefined();
    for (const event of first.events) EventSchemas.parse(event);
    const call = first.events.find((event) => event.type === EventType.TOOL_CALL_START) as BaseEvent & { toolCallId: string; toolCallName: string };
    expect(call).toMatchObject({ toolCallId: "up_nav_1", toolCallName: "navigateToScreen" });
    expect(pendingEvent(first)).toMatchObject({ value: { toolCallIds: ["up_nav_1"] } });
    expect(first.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "success" } });
    expect((first.events.at(-1) as { outcome?: object }).outcome).not.toHaveProperty("pendingToolCallIds");

    agent.addMessage({ id: "story-0-t1", role: "tool", toolCallId: call.toolCallId, content: JSON.stringify({ status: "succeeded", stage: "displayed" }) });
    const second = await runAgent(agent);
    expect(second.failed).toBeUndefined();
    for (const event of second.events) EventSchemas.parse(event);
    expect(pendingEvent(second)).toBeUndefined();
    expect(lastText(agent.messages)).toBe("The orders are open.");
  });
});

describe("an upstream agent that speaks AG-UI 0.0.x", () => {
  it("is read as 1.0: its thinking is taken as reasoning (not passed on), its nulls as absent, and the run stops on its browser call", async () => {
    const agent = new HttpAgent1({ url: `${server.url}/api/agents/front/run`, threadId: "think-1" });
    agent.addMessage({ id: "think-1-u1", role: "user", content: "think first, then go" });
    const events: string[] = [];
    let pending: string[] = [];
    // @ag-ui/client's boundary, in Tether, writes a console warning for each event it converts: kept out of the output.
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    // The 1.0 client verifies every event it is sent: a failed verification rejects the run.
    await agent
      .runAgent(
        { runId: "think-1-r1", tools },
        {
          onEvent: ({ event }) => void events.push(event.type),
          onRunFinishedEvent: (params) => void (params.outcome === "success" && (pending = params.pendingToolCallIds)),
        },
      )
      .finally(() => warnings.mockRestore());
    expect(pending).toEqual(["up_nav_3"]);
    expect(events.filter((type) => /THINKING|REASONING/.test(type))).toEqual([]);
    expect(lastText(agent.messages as Message[])).toBe("Opening the orders…");
    // What Tether did not pass on, in the run's log: the 1.0 events the 0.0.x ones became.
    const log = (await store.getRun("think-1-r1"))!.log.map((entry) => entry.message).join("\n");
    expect(log).toMatch(/REASONING_START .*REASONING_MESSAGE_START .*REASONING_MESSAGE_CONTENT .*REASONING_MESSAGE_END .*REASONING_END/);
    expect(log).not.toContain("THINKING");

    // A 0.0.x client gets the same run in its own shapes.
    const replayed = await fetch(`${server.url}/api/threads/think-1/events${COMPAT}`);
    const frames = parseSseFrames(await replayed.text()).map((frame) => frame.data);
    for (const event of frames) EventSchemas.parse(event);
    expect(frames.at(-2)).toMatchObject({ type: EventType.CUSTOM, name: "tether.pending_tool_calls", value: { toolCallIds: ["up_nav_3"] } });
  });
});
