import { createAgentSession, readSurfaceActivity, SURFACE_ACTIVITY_TYPE, type SurfaceAction } from "@tether-agent/tether/client";
import type { Message } from "@ag-ui/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { agentFailures } from "../helpers/agent-failures.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";

/** The surfaces of a session's conversation, as the panel reads them. */
const surfacesOf = (messages: Message[]) =>
  messages.flatMap((message) => {
    const activity = readSurfaceActivity(message);
    return activity ? [{ id: message.id, activity }] : [];
  });

describe("generated surfaces in the browser session", () => {
  const failures = agentFailures();
  let server: DemoServer;
  beforeAll(async () => {
    server = await startDemoServer({ playbook: { chunkDelayMs: 5 } });
  });
  afterAll(async () => {
    await server.close();
  });

  const session = (threadId: string, user = "lee") => {
    const s = createAgentSession({ api: `${server.url}/api`, agentId: "workdesk", threadId, headers: { Authorization: `Bearer ${server.token(user)}` } });
    s.registerTool({ spec: navigateToScreen, execute: () => ({ status: "succeeded", stage: "displayed" }) });
    return s;
  };
  const authorized = (user = "lee") => ({ headers: { Authorization: `Bearer ${server.token(user)}` } });

  it("keeps the card at its activity position, and a click runs the next turn with a ui-action trigger", async () => {
    const s = session("surface-click");
    await s.send("show R-1042 as a card");
    const [card] = surfacesOf(s.getState().messages);
    expect(card!.activity).toMatchObject({ status: "ready", surfaceId: "request-R-1042" });
    const roles = s.getState().messages.map((message) => message.role);
    // After the render call and its result, before the words that follow.
    expect(roles.indexOf("activity")).toBeGreaterThan(roles.indexOf("tool"));
    expect(roles.lastIndexOf("assistant")).toBeGreaterThan(roles.indexOf("activity"));

    const click: SurfaceAction = {
      name: "open_detail",
      surfaceId: "request-R-1042",
      sourceComponentId: "open",
      context: { requestId: "R-1042" },
      timestamp: new Date().toISOString(),
    };
    await s.act(click);
    expect(s.getState().error).toBeUndefined();
    const thread = await (await fetch(`${server.url}/api/threads/surface-click`, authorized())).json();
    const clicked = thread.runs.at(-2);
    expect(clicked).toMatchObject({ trigger: { kind: "ui-action", parentRunId: thread.runs[0].runId } });
    expect(
      s
        .getState()
        .messages.filter((message) => message.role === "assistant" && message.content)
        .at(-1)?.content,
    ).toBe("Work request detail is open now.");
  });

  it("refuses a click while the agent is still answering", async () => {
    const s = session("surface-busy");
    const first = s.send("show R-1042 as a card");
    await expect.poll(() => s.getState().running).toBe(true);
    await expect(
      s.act({ name: "open_detail", surfaceId: "request-R-1042", sourceComponentId: "open", context: {}, timestamp: new Date().toISOString() }),
    ).rejects.toMatchObject({ code: "run_in_progress" });
    await first;
  });

  it("shows the server's refusal of a click on a surface the thread never showed", async () => {
    const s = session("surface-unknown");
    await s.send("find R-1042");
    await s.act({ name: "open_detail", surfaceId: "request-R-1042", sourceComponentId: "open", context: {}, timestamp: new Date().toISOString() });
    expect(s.getState().error).toMatchObject({ code: "surface_unknown" });
    expect(failures.take()).toMatchObject([{ code: "surface_unknown" }]);
    expect(s.getState().running).toBe(false);
  });

  it("reports a renderer error on the run that produced the surface", async () => {
    const s = session("surface-broken");
    await s.send("show R-1042 as a card");
    const [card] = surfacesOf(s.getState().messages);
    const producer = (await (await fetch(`${server.url}/api/threads/surface-broken`, authorized())).json()).runs[0].runId as string;
    await s.reportRendererError({
      activityMessageId: card!.id,
      surfaceId: "request-R-1042",
      message: "Catalog not found: x",
      details: { code: "RENDERER_REFUSED" },
    });
    const record = await (await fetch(`${server.url}/api/runs/${producer}/record`, authorized())).json();
    expect(JSON.stringify(record)).toMatch(/renderer-error.*Catalog not found: x/);
  });

  it("reads every state a surface passes through, and reads what it cannot understand as a failure", () => {
    const surface = (content: unknown): Message => ({ id: "a2ui-surface-x", role: "activity", activityType: SURFACE_ACTIVITY_TYPE, content }) as Message;
    expect(readSurfaceActivity(surface({ status: "building", progressTokens: 12 }))).toEqual({ status: "building", progressTokens: 12 });
    expect(
      readSurfaceActivity(surface({ status: "retrying", attempt: 2, maxAttempts: 3, errors: [{ code: "cycle", path: "components", message: "m" }, 5] })),
    ).toEqual({
      status: "retrying",
      attempt: 2,
      maxAttempts: 3,
      errors: [{ code: "cycle", path: "components", message: "m" }],
    });
    expect(readSurfaceActivity(surface({ status: "failed", error: "no" }))).toEqual({ status: "failed", error: "no" });
    expect(readSurfaceActivity(surface({ a2ui_operations: [{ version: "v0.9", createSurface: { surfaceId: "s", catalogId: "c" } }] }))).toMatchObject({
      status: "ready",
      surfaceId: "s",
    });
    expect(readSurfaceActivity(surface({ a2ui_operations: [{ version: "v0.9" }] }))).toMatchObject({ status: "failed" });
    expect(readSurfaceActivity(surface({ status: "dancing" }))).toMatchObject({ status: "failed" });
    expect(readSurfaceActivity(surface(null))).toMatchObject({ status: "failed" });
    expect(readSurfaceActivity({ id: "m", role: "activity", activityType: "other", content: {} } as Message)).toBeUndefined();
    expect(readSurfaceActivity({ id: "m", role: "user", content: "hi" })).toBeUndefined();
  });
});
