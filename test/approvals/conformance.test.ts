import { EventType, buildResumeArray, type BaseEvent, type HttpAgent, type Interrupt, type Message } from "@ag-ui/client";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";

const tools = [toAgUiTool(navigateToScreen)];

async function run(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent({ tools, ...parameters }, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

const lastText = (messages: Message[]) => (messages.filter((message) => message.role === "assistant" && message.content).at(-1)?.content as string) ?? "";

describe("approvals over the unmodified HttpAgent", () => {
  let server: DemoServer;
  const request = async (user: string, id: string) =>
    (await (await fetch(`${server.url}/api/workdesk/requests/${id}`, { headers: { Authorization: `Bearer ${server.token(user)}` } })).json()).request;

  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  /** Lee asks to close R-1042; the run ends waiting for approval. */
  async function askToClose(threadId: string, text = "close R-1042 as fixed") {
    const agent = server.agent("lee", threadId);
    agent.addMessage({ id: `${threadId}-u1`, role: "user", content: text });
    const events = await run(agent);
    return { agent, events, interrupt: agent.pendingInterrupts[0] as Interrupt };
  }

  it("ends the run with an approval interrupt, snapshots first, and runs nothing", async () => {
    const { agent, events, interrupt } = await askToClose("approve-0");
    const types = events.map((event) => event.type);
    expect(types.slice(-3)).toEqual([EventType.STATE_SNAPSHOT, EventType.MESSAGES_SNAPSHOT, EventType.RUN_FINISHED]);
    expect(agent.pendingInterrupts).toHaveLength(1);
    const start = events.find((event) => event.type === EventType.TOOL_CALL_START) as BaseEvent & { toolCallId: string; toolCallName: string };
    expect(start.toolCallName).toBe("closeWorkRequest");
    expect(interrupt).toMatchObject({
      reason: "tool_approval",
      toolCallId: start.toolCallId,
      message: 'Close R-1042 "Replace broken badge reader at Gate 3" as "fixed"?',
      responseSchema: {
        type: "object",
        required: ["approved"],
        properties: { approved: { type: "boolean" }, comment: { type: "string" }, resolution: { type: "string" } },
      },
      metadata: { tether: { toolName: "closeWorkRequest", arguments: { requestId: "R-1042", resolution: "fixed" } } },
    });
    const minutes = (Date.parse(interrupt.expiresAt!) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    expect(events.some((event) => event.type === EventType.TOOL_CALL_RESULT)).toBe(false);
    expect((await request("lee", "R-1042")).status).toBe("open");
    expect(lastText(agent.messages)).toMatch(/once you approve/);
    // The thread lists it, so a reloaded page can show the question again.
    const thread = await (await fetch(`${server.url}/api/threads/approve-0`, { headers: { Authorization: `Bearer ${server.token("lee")}` } })).json();
    expect(thread.pendingInterrupts).toEqual([interrupt]);
  });

  it("approve: the call executes once, its result on the original call id, and the request reads closed", async () => {
    const { agent, interrupt } = await askToClose("approve-1");
    const events = await run(agent, {
      resume: buildResumeArray(agent.pendingInterrupts, { [interrupt.id]: { status: "resolved", payload: { approved: true } } }),
    });
    // No new start/args/end: the result answers the call the person approved.
    expect(
      events.filter((event) => event.type === EventType.TOOL_CALL_START).map((event) => (event as unknown as { toolCallName: string }).toolCallName),
    ).not.toContain("closeWorkRequest");
    const result = events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as BaseEvent & { toolCallId: string; content: string };
    expect(result.toolCallId).toBe(interrupt.toolCallId);
    expect(JSON.parse(result.content)).toMatchObject({ closed: true, requestId: "R-1042", resolution: "fixed" });
    expect(lastText(agent.messages)).toBe("R-1042 is closed (resolution: fixed).");
    expect(agent.pendingInterrupts).toEqual([]);
    expect(await request("lee", "R-1042")).toMatchObject({ status: "closed", resolution: "fixed" });
    // searchWorkRequests sees it closed too.
    agent.addMessage({ id: "approve-1-u2", role: "user", content: "find R-1042" });
    await run(agent);
    expect(lastText(agent.messages)).toMatch(/R-1042 "Replace broken badge reader at Gate 3" \(closed, high priority/);
  });

  it("approve with an edited resolution: the edited value is what runs", async () => {
    const { agent, interrupt } = await askToClose("approve-2", "close R-1014 as replaced");
    await run(agent, {
      resume: buildResumeArray(agent.pendingInterrupts, { [interrupt.id]: { status: "resolved", payload: { approved: true, resolution: "bulbs replaced" } } }),
    });
    expect(await request("lee", "R-1014")).toMatchObject({ status: "closed", resolution: "bulbs replaced" });
  });

  it("reject: nothing runs, the request is unchanged, and the agent says so", async () => {
    const { agent, interrupt } = await askToClose("reject-1", "close R-1005 as fixed");
    const before = await request("lee", "R-1005");
    const events = await run(agent, {
      resume: buildResumeArray(agent.pendingInterrupts, { [interrupt.id]: { status: "resolved", payload: { approved: false, comment: "not yet" } } }),
    });
    const result = events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as BaseEvent & { content: string };
    expect(JSON.parse(result.content)).toMatchObject({ status: "rejected", comment: "not yet" });
    expect(await request("lee", "R-1005")).toEqual(before);
    expect(lastText(agent.messages)).toBe(`I didn't close R-1005: the approval was rejected ("not yet").`);
  });

  it("cancel: nothing runs, and the agent says it left the request open", async () => {
    const { agent, interrupt } = await askToClose("cancel-1", "close R-1008 as done");
    await run(agent, { resume: buildResumeArray(agent.pendingInterrupts, { [interrupt.id]: { status: "cancelled" } }) });
    expect((await request("lee", "R-1008")).status).not.toBe("closed");
    expect(lastText(agent.messages)).toBe("I left R-1008 open: the approval was cancelled.");
  });

  it("refuses a close outside what the user may do, without asking anyone", async () => {
    const agent = server.agent("kim", "kim-close");
    agent.addMessage({ id: "kim-close-u1", role: "user", content: "close R-1002 as fixed" });
    const events = await run(agent);
    expect(agent.pendingInterrupts).toEqual([]);
    const result = events.find((event) => event.type === EventType.TOOL_CALL_RESULT) as BaseEvent & { content: string };
    expect(JSON.parse(result.content).error).toMatchObject({ code: "forbidden", message: expect.stringMatching(/only a manager/) });
  });

  it("expiry: the client and the server refuse an approval past expiresAt; cancelling still works", async () => {
    const quick = await startDemoServer({ approvalTimeoutMs: 150 });
    try {
      const agent = quick.agent("lee", "expire-1");
      agent.addMessage({ id: "expire-1-u1", role: "user", content: "close R-1017 as fixed" });
      await run(agent);
      const [interrupt] = agent.pendingInterrupts as [Interrupt];
      await new Promise((resolve) => setTimeout(resolve, 200));
      const approve = buildResumeArray([interrupt], { [interrupt.id]: { status: "resolved", payload: { approved: true } } });
      // The reference client refuses before sending…
      await expect(run(agent, { resume: approve })).rejects.toThrow(/expired/);
      // …and the server refuses too, for any client that sends it anyway.
      const response = await fetch(`${quick.url}/api/agents/workdesk/run`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${quick.token("lee")}` },
        body: JSON.stringify({ threadId: "expire-1", runId: "expire-1-raw", messages: agent.messages, tools, context: [], resume: approve }),
      });
      expect(response.status).toBe(410);
      expect((await response.json()).error.code).toBe("interrupt_expired");
      await run(agent, { resume: buildResumeArray([interrupt], { [interrupt.id]: { status: "cancelled" } }) });
      expect(lastText(agent.messages)).toBe("I left R-1017 open: the approval was cancelled.");
    } finally {
      await quick.close();
    }
  });
});
