import { HttpAgent as HttpAgent1 } from "@ag-ui/client";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { EventSchemas, EventType, HttpAgent, type AgentSubscriber, type BaseEvent, type Message } from "ag-ui-client-0.0";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { agentFailures } from "../helpers/agent-failures.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";

// The 0.0.x packages (here @ag-ui/client 0.0.59, the version CopilotKit 1.75 pins) parse, enforce and verify
// every event with their own schemas; their RUN_FINISHED outcome is a strict object without pendingToolCallIds.
const tools = [toAgUiTool(navigateToScreen)];
const COMPAT = "?compat=ag-ui-0.0";

interface Seen {
  events: BaseEvent[];
  failed?: Error;
}

async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<Seen> {
  const seen: Seen = { events: [] };
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => void seen.events.push(event),
    onRunFailed: ({ error }) => void (seen.failed = error),
  };
  await agent.runAgent({ tools, ...parameters }, subscriber).catch((error: Error) => (seen.failed ??= error));
  return seen;
}

const lastText = (messages: Message[]) => (messages.filter((message) => message.role === "assistant" && message.content).at(-1)?.content as string) ?? "";
const pendingEvent = (seen: Seen) =>
  seen.events.find((event) => event.type === EventType.CUSTOM && (event as { name?: string }).name === "tether.pending_tool_calls");

describe("an AG-UI 0.0.x client (the packages CopilotKit 1.75 pins), with ?compat=ag-ui-0.0", () => {
  const failures = agentFailures();
  let server: DemoServer;
  const agent0 = (user: string, threadId: string, query = COMPAT) =>
    new HttpAgent({ url: `${server.url}/api/agents/workdesk/run${query}`, headers: { Authorization: `Bearer ${server.token(user)}` }, threadId });
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("fails on the first turn without it: the 1.0 outcome field is the whole gap", async () => {
    const agent = agent0("kim", "plain-1", "");
    agent.addMessage({ id: "plain-1-u1", role: "user", content: "open the work request list" });
    const seen = await run(agent);
    expect(String(seen.failed)).toMatch(/unrecognized_keys[\s\S]*pendingToolCallIds/);
    expect(failures.take()).toEqual([seen.failed]); // what the 0.0.x client logs for a failed run
  });

  it("plays the two-turn story: every event passes the 0.0.x schemas, and the pending call travels in a CUSTOM event", async () => {
    const agent = agent0("kim", "story-0");
    agent.addMessage({ id: "story-0-u1", role: "user", content: "open the work request list" });
    const first = await run(agent);
    expect(first.failed).toBeUndefined();
    for (const event of first.events) EventSchemas.parse(event);
    const navigate = first.events.find(
      (event) => event.type === EventType.TOOL_CALL_START && (event as { toolCallName?: string }).toolCallName === "navigateToScreen",
    ) as (BaseEvent & { toolCallId: string }) | undefined;
    expect(pendingEvent(first)).toMatchObject({ value: { toolCallIds: [navigate!.toolCallId] } });
    expect(first.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "success" } });
    expect((first.events.at(-1) as { outcome?: object }).outcome).not.toHaveProperty("pendingToolCallIds");

    agent.addMessage({
      id: "story-0-t1",
      role: "tool",
      toolCallId: navigate!.toolCallId,
      content: JSON.stringify({ status: "succeeded", stage: "displayed" }),
    });
    const second = await run(agent);
    expect(second.failed).toBeUndefined();
    for (const event of second.events) EventSchemas.parse(event);
    expect(lastText(agent.messages)).toMatch(/open now/);
  });

  it("a search and an approval run pass the 0.0.x schemas; the approval ends with its interrupt", async () => {
    const search = agent0("kim", "search-0");
    search.addMessage({ id: "search-0-u1", role: "user", content: "find badge reader requests" });
    const found = await run(search);
    expect(found.failed).toBeUndefined();
    expect(lastText(search.messages)).toMatch(/R-1042/);

    const close = agent0("lee", "approve-0");
    close.addMessage({ id: "approve-0-u1", role: "user", content: "close R-1042 as fixed" });
    const asked = await run(close);
    expect(asked.failed).toBeUndefined();
    for (const event of asked.events) EventSchemas.parse(event);
    expect(asked.events.at(-1)).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "interrupt", interrupts: [{ reason: "tool_approval" }] } });
  });

  it("sends the custom event without an SSE id (every id names one event of the log); a reconnect after the event before it gets the pair again", async () => {
    const agent = agent0("kim", "resume-0");
    agent.addMessage({ id: "resume-0-u1", role: "user", content: "open the work request list" });
    expect((await run(agent)).failed).toBeUndefined();
    const read = async (lastEventId?: string) =>
      parseSseFrames(
        await (
          await fetch(`${server.url}/api/threads/resume-0/events${COMPAT}`, {
            headers: { Authorization: `Bearer ${server.token("kim")}`, ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
          })
        ).text(),
      );
    const replayed = await read();
    const [before, custom, end] = replayed.slice(-3);
    expect([custom!.data.type, end!.data.type]).toEqual([EventType.CUSTOM, EventType.RUN_FINISHED]);
    expect(custom!.id).toBeUndefined();
    const ids = replayed.flatMap((frame) => (frame.id ? [frame.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    const afterBefore = await read(before!.id);
    expect(afterBefore.map((frame) => frame.data.type)).toEqual([EventType.CUSTOM, EventType.RUN_FINISHED]);
    expect(afterBefore[1]!.id).toBe(end!.id);
  });

  it("ends a cancelled run as 0.0.x can read it: the outcome in a CUSTOM event, then RUN_FINISHED without one", async () => {
    const slow = await startDemoServer({ playbook: { chunkDelayMs: 40 } });
    try {
      const agent = new HttpAgent({
        url: `${slow.url}/api/agents/workdesk/run${COMPAT}`,
        headers: { Authorization: `Bearer ${slow.token("kim")}` },
        threadId: "stop-0",
      });
      agent.addMessage({ id: "stop-0-u1", role: "user", content: "find badge reader requests" });
      const seen: Seen = { events: [] };
      const running = agent.runAgent(
        { runId: "stop-0-r1", tools },
        { onEvent: ({ event }) => void seen.events.push(event), onRunFailed: ({ error }) => void (seen.failed = error) },
      );
      await expect.poll(() => seen.events.length).toBeGreaterThan(1);
      const cancel = await fetch(`${slow.url}/api/runs/stop-0-r1/cancel`, {
        method: "POST",
        headers: { Authorization: `Bearer ${slow.token("kim")}`, "Content-Type": "application/json" },
        body: "{}",
      });
      expect(cancel.status).toBe(202);
      await running.catch((error: Error) => (seen.failed ??= error));
      expect(seen.failed).toBeUndefined();
      for (const event of seen.events) EventSchemas.parse(event);
      expect(seen.events.slice(-2)).toMatchObject([
        { type: EventType.CUSTOM, name: "tether.run_outcome", value: { type: "cancelled" } },
        { type: EventType.RUN_FINISHED },
      ]);
      expect(seen.events.at(-1)).not.toHaveProperty("outcome");
    } finally {
      await slow.close();
    }
  });

  it("refuses a compatibility level it does not know, and an AG-UI 1.0 client keeps pendingToolCallIds in the outcome", async () => {
    const refused = await fetch(`${server.url}/api/agents/workdesk/run?compat=ag-ui-0.5`, {
      method: "POST",
      headers: { Authorization: `Bearer ${server.token("kim")}`, "Content-Type": "application/json" },
      body: JSON.stringify({ threadId: "bad-compat", runId: "bad-compat-r1", messages: [], tools: [], context: [], state: {}, forwardedProps: {} }),
    });
    expect(refused.status).toBe(400);
    const twice = await fetch(`${server.url}/api/threads/story-0/events?compat=ag-ui-0.0&compat=ag-ui-1.0`, {
      headers: { Authorization: `Bearer ${server.token("kim")}` },
    });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { error: { message: string } }).error.message).toMatch(/Give compat once/);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/ag-ui-0\.0/),
    });

    const agent = new HttpAgent1({
      url: `${server.url}/api/agents/workdesk/run`,
      headers: { Authorization: `Bearer ${server.token("kim")}` },
      threadId: "story-1",
    });
    agent.addMessage({ id: "story-1-u1", role: "user", content: "open the work request list" });
    let pending: string[] = [];
    const events: string[] = [];
    await agent.runAgent(
      { tools },
      {
        onEvent: ({ event }) => void events.push(event.type),
        onRunFinishedEvent: (params) => void (params.outcome === "success" && (pending = params.pendingToolCallIds)),
      },
    );
    expect(pending).toHaveLength(1);
    expect(events).not.toContain(EventType.CUSTOM);
  });
});
