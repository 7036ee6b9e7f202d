import { EventType, type BaseEvent, type Message, type RunFinishedEvent } from "@ag-ui/client";
import type { AgentSubscriber, HttpAgent } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";

const tools = [toAgUiTool(navigateToScreen)];

interface RunResult {
  events: BaseEvent[];
  finished?: RunFinishedEvent;
  pendingToolCallIds: string[];
  failed?: Error;
}

/** Runs the unmodified HttpAgent (which parses, enforces and verifies the stream) and keeps what it saw. */
async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<RunResult> {
  const result: RunResult = { events: [], pendingToolCallIds: [] };
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => {
      result.events.push(event);
    },
    onRunFinishedEvent: (params) => {
      result.finished = params.event;
      if (params.outcome === "success") result.pendingToolCallIds = params.pendingToolCallIds;
    },
    onRunFailed: ({ error }) => {
      result.failed = error;
    },
  };
  await agent.runAgent({ tools, ...parameters }, subscriber);
  return result;
}

function lastAssistantText(messages: Message[]): string {
  const message = messages.filter((candidate) => candidate.role === "assistant" && candidate.content).at(-1);
  return (message?.content as string | undefined) ?? "";
}

function toolCall(messages: Message[], toolCallId: string) {
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    const call = message.toolCalls?.find((candidate) => candidate.id === toolCallId);
    if (call) return call;
  }
  return undefined;
}

/** The story's first run: "open the work request list" → lookup on the server → navigation pending in the browser. */
async function askForTheList(server: DemoServer, threadId: string) {
  const agent = server.agent("kim", threadId);
  agent.addMessage({ id: `${threadId}-u1`, role: "user", content: "open the work request list" });
  const first = await run(agent);
  return { agent, first };
}

describe("the Workdesk story over a standard AG-UI HttpAgent", () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("looks the screen up on the server and leaves navigateToScreen MNU-3120 pending for the browser", async () => {
    const { agent, first } = await askForTheList(server, "story-1");
    expect(first.failed).toBeUndefined();
    const types = first.events.map((event) => event.type);
    expect(types[0]).toBe(EventType.RUN_STARTED);
    expect(types.at(-1)).toBe(EventType.RUN_FINISHED);

    const starts = first.events.filter((event) => event.type === EventType.TOOL_CALL_START) as Array<BaseEvent & { toolCallName: string; toolCallId: string }>;
    expect(starts.map((event) => event.toolCallName)).toEqual(["lookupScreens", "navigateToScreen"]);
    const [lookup, navigate] = starts as [(typeof starts)[0], (typeof starts)[0]];
    const lookupResult = first.events.find((event) => event.type === EventType.TOOL_CALL_RESULT && event.toolCallId === lookup.toolCallId);
    expect(JSON.parse(lookupResult!.content as string).candidates[0].screenId).toBe("MNU-3120");
    // The arguments streamed in pieces, as a provider streams them; the client put them back together.
    expect(first.events.filter((event) => event.type === EventType.TOOL_CALL_ARGS && event.toolCallId === navigate.toolCallId).length).toBeGreaterThan(1);
    expect(JSON.parse(toolCall(agent.messages, navigate.toolCallId)!.function.arguments)).toMatchObject({ screenId: "MNU-3120", orgScope: "ORG-01" });

    expect(first.finished!.outcome).toEqual({ type: "success", pendingToolCallIds: [navigate.toolCallId] });
    expect(first.pendingToolCallIds).toEqual([navigate.toolCallId]);
    // No TOOL_CALL_RESULT for the browser's call: the server does not pretend it happened.
    expect(first.events.some((event) => event.type === EventType.TOOL_CALL_RESULT && event.toolCallId === navigate.toolCallId)).toBe(false);
    const said = lastAssistantText(agent.messages);
    expect(said).toMatch(/opening work request list/i);
    expect(said).not.toMatch(/\bis open\b|moved you|have opened|you are now/i);
  });

  it("confirms only after the browser reports the screen displayed", async () => {
    const { agent, first } = await askForTheList(server, "story-2");
    const [toolCallId] = first.pendingToolCallIds as [string];
    const parentRunId = first.finished!.runId;
    agent.addMessage({
      id: "story-2-outcome",
      role: "tool",
      toolCallId,
      content: JSON.stringify({ status: "succeeded", stage: "displayed", data: { route: "/work-requests" } }),
    });
    const second = await run(agent, { forwardedProps: { tether: { trigger: { kind: "tool-result", parentRunId, toolCallIds: [toolCallId] } } } });
    expect(second.failed).toBeUndefined();
    expect(second.finished!.outcome).toEqual({ type: "success" });
    expect(lastAssistantText(agent.messages)).toBe("Work request list is open now.");

    const thread = await (await fetch(`${server.url}/api/threads/story-2`, { headers: { Authorization: `Bearer ${server.token("kim")}` } })).json();
    expect(thread.pendingToolCalls).toEqual([]);
    expect(thread.runs.map((run: { parentRunId?: string }) => run.parentRunId)).toEqual([undefined, parentRunId]);
    expect(thread.runs[1].trigger).toEqual({ kind: "tool-result", parentRunId, toolCallIds: [toolCallId] });
  });

  it("says the screen could not be opened when the browser reports access_denied", async () => {
    const { agent, first } = await askForTheList(server, "story-3");
    const [toolCallId] = first.pendingToolCallIds as [string];
    agent.addMessage({
      id: "story-3-outcome",
      role: "tool",
      toolCallId,
      content: JSON.stringify({ status: "failed", stage: "requested", reason: "access_denied" }),
    });
    const second = await run(agent, {
      forwardedProps: { tether: { trigger: { kind: "tool-result", parentRunId: first.finished!.runId, toolCallIds: [toolCallId] } } },
    });
    expect(second.failed).toBeUndefined();
    const said = lastAssistantText(agent.messages);
    expect(said).toMatch(/couldn't open Work request list/);
    expect(said).toMatch(/doesn't have access/);
    expect(said).not.toMatch(/is open/);
  });

  it("gives the route to follow by hand when the browser blocked navigation", async () => {
    const { agent, first } = await askForTheList(server, "story-4");
    const [toolCallId] = first.pendingToolCallIds as [string];
    agent.addMessage({ id: "story-4-outcome", role: "tool", toolCallId, content: JSON.stringify({ status: "blocked", reason: "blocked_by_mode" }) });
    await run(agent);
    expect(lastAssistantText(agent.messages)).toMatch(/can't change the screen.*\/work-requests/);
  });

  it("summarises a search from the caller's organisation", async () => {
    const agent = server.agent("kim", "story-5");
    agent.addMessage({ id: "story-5-u1", role: "user", content: "find badge reader requests" });
    const result = await run(agent);
    expect(result.failed).toBeUndefined();
    expect(lastAssistantText(agent.messages)).toMatch(
      /I found 1 work request in ORG-01 matching "badge reader": R-1042 "Replace broken badge reader at Gate 3"/,
    );
  });

  it("answers off-playbook questions honestly, as the scripted model it is", async () => {
    const agent = server.agent("kim", "story-6");
    agent.addMessage({ id: "story-6-u1", role: "user", content: "what's the weather like?" });
    await run(agent);
    const said = lastAssistantText(agent.messages);
    expect(said).toMatch(/offline playbook model/);
    expect(said).toMatch(/TETHER_MODEL/);
  });
});
