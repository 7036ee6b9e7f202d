import { createAgentSession, type BrowserToolHandler } from "@tether-agent/tether/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";

const lastAssistant = (messages: Array<{ role: string; content?: unknown }>) =>
  messages.filter((message) => message.role === "assistant" && message.content).at(-1)?.content;

describe("the browser session against the demo server", () => {
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const session = (threadId: string, user = "kim") =>
    createAgentSession({ api: `${server.url}/api`, agentId: "workdesk", threadId, headers: { Authorization: `Bearer ${server.token(user)}` }, drift: "throw" });

  it("navigates once, reports the outcome, and the agent confirms only then", async () => {
    const execute = vi.fn<BrowserToolHandler["execute"]>(() => ({ status: "succeeded", stage: "displayed", data: { route: "/work-requests" } }));
    const s = session("client-1");
    s.registerTool({ spec: navigateToScreen, execute });
    await s.send("open the work request list");
    expect(execute).toHaveBeenCalledTimes(1);
    expect(execute.mock.calls[0]![0]).toMatchObject({ screenId: "MNU-3120" });
    const state = s.getState();
    expect(lastAssistant(state.messages)).toBe("Work request list is open now.");
    expect(state.activities.map((activity) => [activity.toolName, activity.location, activity.status, activity.stage])).toEqual([
      ["lookupScreens", "server", "done", undefined],
      ["navigateToScreen", "browser", "succeeded", "displayed"],
    ]);
    expect(state.running).toBe(false);
    expect(state.error).toBeUndefined();
  });

  it("blocks navigation in full-screen mode before reading the arguments, and the agent gives the route", async () => {
    const execute = vi.fn<BrowserToolHandler["execute"]>();
    const s = session("client-2");
    s.registerTool({ spec: navigateToScreen, execute, modes: ["side"] });
    s.setMode("fullscreen");
    await s.send("open the work request list");
    expect(execute).not.toHaveBeenCalled();
    expect(s.getState().activities.at(-1)).toMatchObject({ toolName: "navigateToScreen", status: "blocked", reason: "blocked_by_mode" });
    expect(lastAssistant(s.getState().messages)).toMatch(/can't change the screen.*\/work-requests/);
  });

  it("fails drift checks in strict mode when a required browser tool has no executor", async () => {
    const s = session("client-3");
    await expect(s.send("hello")).rejects.toMatchObject({ code: "tool_schema_mismatch" });
    expect(s.getState().error?.message).toMatch(/navigateToScreen: required by the server/);
  });

  it("holds an approval until it is answered, then the agent acts on the answer", async () => {
    const s = session("client-approve", "lee");
    s.registerTool({ spec: navigateToScreen, execute: () => ({ status: "succeeded", stage: "displayed" }) });
    await s.send("close R-1016 as fixed");
    const [interrupt] = s.getState().interrupts;
    expect(interrupt).toMatchObject({ reason: "tool_approval", message: expect.stringContaining("Close R-1016") });
    expect(s.getState().activities.at(-1)).toMatchObject({ toolName: "closeWorkRequest", status: "awaiting" });
    await s.answer(interrupt!.id, { approved: true, comment: "done" });
    expect(s.getState().interrupts).toEqual([]);
    expect(s.getState().activities.at(-1)).toMatchObject({ toolName: "closeWorkRequest", status: "done" });
    expect(lastAssistant(s.getState().messages)).toBe("R-1016 is closed (resolution: fixed).");
  });

  it("cancels open approvals when the user moves on by typing", async () => {
    const s = session("client-move-on", "lee");
    s.registerTool({ spec: navigateToScreen, execute: () => ({ status: "succeeded", stage: "displayed" }) });
    await s.send("close R-1013 as fixed");
    expect(s.getState().interrupts).toHaveLength(1);
    await s.send("find R-1013");
    expect(s.getState().interrupts).toEqual([]);
    expect(s.getState().error).toBeUndefined();
    expect(lastAssistant(s.getState().messages)).toMatch(/R-1013/);
    const thread = await (await fetch(`${server.url}/api/threads/client-move-on`, { headers: { Authorization: `Bearer ${server.token("lee")}` } })).json();
    const answer = thread.messages.find((message: { role: string; content: string }) => message.role === "tool" && message.content.includes("cancelled"));
    expect(JSON.parse(answer.content)).toMatchObject({ status: "cancelled" });
  });

  it("tells onToolDispatch how long a browser call waited between its TOOL_CALL_END and its tool, once per call run at its END", async () => {
    const timings: unknown[] = [];
    let calledAt = 0;
    const s = createAgentSession({
      api: `${server.url}/api`,
      agentId: "workdesk",
      threadId: "client-timing",
      headers: { Authorization: `Bearer ${server.token("kim")}` },
      drift: "throw",
      onToolDispatch: (timing) => timings.push(timing),
    });
    s.registerTool({ spec: navigateToScreen, execute: () => ((calledAt = performance.now()), { status: "succeeded", stage: "displayed" }) });
    await s.send("open the work request list");
    const navigate = s.getState().activities.find((activity) => activity.toolName === "navigateToScreen")!;
    expect(timings).toEqual([
      {
        toolCallId: navigate.toolCallId,
        toolName: "navigateToScreen",
        runId: navigate.runId,
        endArrivedAt: expect.any(Number),
        dispatchedAt: expect.any(Number),
      },
    ]);
    const [timing] = timings as Array<{ endArrivedAt: number; dispatchedAt: number }>;
    expect(timing!.endArrivedAt).toBeLessThanOrEqual(timing!.dispatchedAt);
    expect(timing!.dispatchedAt).toBeLessThanOrEqual(calledAt);
  });

  it("tries a run again when a proxy answers 502 while the server restarts, and runs it once", async () => {
    let posts = 0;
    const execute = vi.fn<BrowserToolHandler["execute"]>(() => ({ status: "succeeded", stage: "displayed" }));
    const s = createAgentSession({
      api: `${server.url}/api`,
      agentId: "workdesk",
      threadId: "client-502",
      headers: { Authorization: `Bearer ${server.token("kim")}` },
      drift: "ignore",
      fetch: async (url, init) => {
        if (String(url).endsWith("/run") && init?.method === "POST" && posts++ === 0) return new Response("Bad Gateway", { status: 502 });
        return fetch(url, init);
      },
    });
    s.registerTool({ spec: navigateToScreen, execute });
    await s.send("open the work request list");
    expect(s.getState().error).toBeUndefined();
    expect(execute).toHaveBeenCalledTimes(1);
    expect(lastAssistant(s.getState().messages)).toBe("Work request list is open now.");
  });
});
