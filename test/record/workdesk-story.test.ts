import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { recordClient, startedCalls, toolMessage, userMessage, type RecordClient } from "./record-client.ts";

/**
 * The Workdesk story replayed through the demo server, and the records it
 * leaves read section by section: "open the work request list" → the screen
 * looked up on the server → navigateToScreen pending in the browser → the
 * browser's report → the run that carried the outcome to the model.
 */

const tools = [toAgUiTool(navigateToScreen)];

let server: DemoServer;
let client: RecordClient;
beforeAll(async () => {
  server = await startDemoServer();
  client = recordClient(server.url, server.token);
});
afterAll(async () => {
  await server.close();
});

/** The first run of the story on a thread: returns the navigation call left pending. */
async function openTheList(threadId: string) {
  const frames = await client.run("kim", "workdesk", {
    threadId,
    runId: `${threadId}-r1`,
    messages: [userMessage(`${threadId}-u1`, "open the work request list")],
    tools,
    state: { screen: "MNU-3100" },
    context: [{ description: "where the person is", value: "the home screen" }],
    forwardedProps: { locale: "en", tether: { trigger: { kind: "user-message" } } },
  });
  const navigate = startedCalls(frames).find((call) => call.toolCallName === "navigateToScreen")!;
  return { frames, navigate };
}

/** The browser's side: the outcome reported, then carried to the model in a tool-result run. */
async function answer(threadId: string, toolCallId: string, outcome: Record<string, unknown>) {
  expect(await client.report("kim", `${threadId}-r1`, { kind: "tool-outcome", toolCallId, toolName: "navigateToScreen", outcome })).toBe(202);
  return client.run("kim", "workdesk", {
    threadId,
    runId: `${threadId}-r2`,
    messages: [toolMessage(`${threadId}-t1`, toolCallId, outcome)],
    tools,
    forwardedProps: { tether: { trigger: { kind: "tool-result", parentRunId: `${threadId}-r1`, toolCallIds: [toolCallId] } } },
  });
}

describe("the Workdesk story's run records", () => {
  it("fill all five parts of the first run and link it both ways to the run its browser outcome started", async () => {
    const threadId = "rec-story";
    const { frames, navigate } = await openTheList(threadId);
    await answer(threadId, navigate.toolCallId, { status: "succeeded", stage: "displayed", data: { route: "/work-requests" } });

    const { status, body: first } = await client.record("kim", `${threadId}-r1`);
    expect(status).toBe(200);
    expect(first).toMatchObject({ format: 2, runId: `${threadId}-r1`, threadId, agentId: "workdesk", userId: "kim", status: "finished", complete: true });
    expect(first.incomplete).toBeUndefined();
    expect(first.finishedAt).toEqual(expect.any(String));

    // 1. What started it, and what it led to.
    expect(first.start).toEqual({ trigger: { kind: "user-message", messageId: `${threadId}-u1` }, nextRunIds: [`${threadId}-r2`] });

    // 2. What the agent was given: the message, state, context, props without Tether's own, the tools and their decisions.
    expect(first.input.messages).toEqual([userMessage(`${threadId}-u1`, "open the work request list")]);
    expect(first.input).toMatchObject({
      messageCount: 1,
      newMessageIds: [`${threadId}-u1`],
      state: { screen: "MNU-3100" },
      context: [{ description: "where the person is", value: "the home screen" }],
      forwardedProps: { locale: "en" },
    });
    expect(first.input.tools).toContainEqual({ name: "lookupScreens", location: "server", decision: "offered" });
    expect(first.input.tools).toContainEqual({ name: "navigateToScreen", location: "browser", decision: "offered" });

    // 3. Each model call: the lookup on the server with its result, then the navigation left to the browser.
    expect(first.modelCalls.map((call) => call.step)).toEqual([1, 2]);
    for (const call of first.modelCalls) {
      expect(call.model).toEqual({ provider: "tether.playbook", modelId: expect.any(String) });
      expect(call).toMatchObject({ messageCount: expect.any(Number), toolCount: expect.any(Number), startedAt: expect.any(String) });
      expect(call.toolCount).toBeGreaterThanOrEqual(2);
      expect(call.durationMs).toBeGreaterThanOrEqual(call.firstTokenMs ?? 0);
      expect(call.usage?.outputTokens).toBeGreaterThan(0);
    }
    expect(first.modelCalls[0]!.messageCount).toBeLessThan(first.modelCalls[1]!.messageCount);
    const [lookup] = first.modelCalls[0]!.toolCalls;
    expect(lookup).toMatchObject({ toolName: "lookupScreens", location: "server", status: "result", durationMs: expect.any(Number) });
    expect(JSON.parse(lookup!.arguments as string)).toEqual(expect.any(Object));
    expect((lookup!.result as { candidates: Array<{ screenId: string }> }).candidates[0]!.screenId).toBe("MNU-3120");
    expect(first.modelCalls[1]!.toolCalls).toEqual([
      { toolCallId: navigate.toolCallId, toolName: "navigateToScreen", location: "browser", status: "pending", arguments: expect.stringContaining("MNU-3120") },
    ]);
    expect(first.modelCalls[1]!.finishReason).toEqual(expect.any(String));

    // 4. What the client was sent: every event with its number, as streamed.
    expect(first.output.eventCount).toBe(frames.length);
    expect(first.output.lastSeq).toBe(Number(frames.at(-1)!.id!.split(":")[1]));
    expect(first.output.events.map((event) => event.type)).toEqual(frames.map((frame) => frame.data.type));
    expect(first.output.events.find((event) => event.type === "TOOL_CALL_START" && event.toolCallId === navigate.toolCallId)).toBeDefined();
    expect(first.output.next).toBeUndefined();
    expect(first.output.surfaces).toEqual([]);

    // 5. What the browser reported, and the run it led to.
    expect(first.reports).toEqual([
      {
        receivedAt: expect.any(String),
        kind: "tool-outcome",
        toolCallId: navigate.toolCallId,
        toolName: "navigateToScreen",
        body: expect.objectContaining({ outcome: expect.objectContaining({ status: "succeeded" }) }),
        ledToRunId: `${threadId}-r2`,
      },
    ]);
    expect(first.outcome).toEqual({ type: "success", pendingToolCallIds: [navigate.toolCallId] });
    expect(first.usage?.outputTokens).toBe(first.modelCalls.reduce((sum, call) => sum + (call.usage?.outputTokens ?? 0), 0));

    // The run the outcome started links back, and says the screen opened.
    const { body: second } = await client.record("kim", `${threadId}-r2`);
    expect(second.start).toEqual({ trigger: { kind: "tool-result", toolCallIds: [navigate.toolCallId] }, previousRunId: `${threadId}-r1`, nextRunIds: [] });
    expect(second.input.newMessageIds).toEqual([`${threadId}-t1`]);
    expect((second.input.messages as Array<{ id: string }>).map((message) => message.id)).toEqual([
      `${threadId}-u1`,
      ...first.modelCalls.flatMap((call) => (call.toolCalls.length > 0 ? [expect.any(String)] : [])),
      expect.any(String),
      `${threadId}-t1`,
    ]);
    expect(second.modelCalls).toHaveLength(1);
    expect(second.modelCalls[0]!.text).toMatch(/work request list/i);
    expect(second.reports).toEqual([]);
  });

  it("gives the thread's chain with what started each run in a few words", async () => {
    const threadId = "rec-chain";
    const { navigate } = await openTheList(threadId);
    await answer(threadId, navigate.toolCallId, { status: "succeeded", stage: "displayed" });

    const { status, body } = await client.chain("kim", threadId);

    expect(status).toBe(200);
    expect(body).toEqual({
      threadId,
      agentId: "workdesk",
      runs: [
        {
          runId: `${threadId}-r1`,
          status: "finished",
          complete: true,
          createdAt: expect.any(String),
          finishedAt: expect.any(String),
          trigger: { kind: "user-message", summary: "open the work request list" },
          nextRunIds: [`${threadId}-r2`],
          // It waited for the browser: the chain says so, as the record does.
          outcome: { type: "success", pendingToolCallIds: [navigate.toolCallId] },
        },
        {
          runId: `${threadId}-r2`,
          status: "finished",
          complete: true,
          createdAt: expect.any(String),
          finishedAt: expect.any(String),
          trigger: { kind: "tool-result", summary: "outcome of navigateToScreen" },
          previousRunId: `${threadId}-r1`,
          nextRunIds: [],
          outcome: { type: "success" },
        },
      ],
    });
  });

  it("records an access denied in the browser: the report, the run it led to, and what the agent said", async () => {
    const threadId = "rec-denied";
    const { navigate } = await openTheList(threadId);
    await answer(threadId, navigate.toolCallId, { status: "failed", stage: "requested", reason: "access_denied" });

    const { body: first } = await client.record("kim", `${threadId}-r1`);
    expect(first.reports).toMatchObject([{ kind: "tool-outcome", body: { outcome: { reason: "access_denied" } }, ledToRunId: `${threadId}-r2` }]);
    const { body: second } = await client.record("kim", `${threadId}-r2`);
    expect(second.start.previousRunId).toBe(`${threadId}-r1`);
    expect(JSON.stringify(second.input.messages)).toContain("access_denied");
    expect(second.modelCalls.at(-1)!.text).toMatch(/access/);
  });

  it("lets the owner and an admin read a record and a chain, and nobody else", async () => {
    const threadId = "rec-access";
    await openTheList(threadId);

    expect((await client.record("kim", `${threadId}-r1`)).status).toBe(200);
    expect((await client.record("admin", `${threadId}-r1`)).status).toBe(200);
    expect((await client.chain("admin", threadId)).status).toBe(200);
    expect((await client.record("lee", `${threadId}-r1`)).status).toBe(403);
    expect((await client.chain("lee", threadId)).status).toBe(403);
    expect((await client.record("admin", "rec-no-such-run")).status).toBe(404);
    expect((await client.chain("admin", "rec-no-such-thread")).status).toBe(404);
  });

  it("pages a record's events with afterSeq and limit, the rest of the record on every page", async () => {
    const threadId = "rec-pages";
    const { frames } = await openTheList(threadId);

    const seqs: number[] = [];
    let query = "?limit=5";
    for (;;) {
      const { body } = await client.record("kim", `${threadId}-r1`, query);
      expect(body.modelCalls).toHaveLength(2);
      expect(body.output.events.length).toBeLessThanOrEqual(5);
      seqs.push(...body.output.events.map((event) => event.seq));
      if (!body.output.next) break;
      query = `?limit=5&afterSeq=${body.output.next.afterSeq}`;
    }
    expect(seqs).toEqual(frames.map((frame) => Number(frame.id!.split(":")[1])));
  });
});
