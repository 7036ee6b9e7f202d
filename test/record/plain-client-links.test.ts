import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { SAM_DESKTOP, recipesAgent } from "../recipes/recipes-runs.ts";
import { recordClient, startedCalls, toolMessage, userMessage, type RecordClient } from "./record-client.ts";

/**
 * A plain AG-UI client sends no `forwardedProps.tether.trigger`: the runs it
 * starts by answering an approval or a browser call are still linked to the
 * run that asked, as the server knows which run that was.
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

describe("run records of a plain AG-UI client", () => {
  it("link an approval's answer to the run that asked, both ways", async () => {
    const threadId = "rec-plain-resume";
    const asked = await client.run("lee", "workdesk", {
      threadId,
      runId: `${threadId}-r1`,
      messages: [userMessage(`${threadId}-u1`, "close R-1001 as fixed")],
      tools,
    });
    const interrupt = (asked.at(-1)!.data as { outcome: { interrupts: Array<{ id: string }> } }).outcome.interrupts[0]!;
    await client.run("lee", "workdesk", {
      threadId,
      runId: `${threadId}-r2`,
      tools,
      resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }],
    });

    const { body: answering } = await client.record("lee", `${threadId}-r2`);
    expect(answering.start.trigger.kind).toBe("resume");
    expect(answering.start.previousRunId).toBe(`${threadId}-r1`);
    const { body: asking } = await client.record("lee", `${threadId}-r1`);
    expect(asking.start.nextRunIds).toEqual([`${threadId}-r2`]);
    const { body: chain } = await client.chain("lee", threadId);
    expect(chain.runs.map((run) => [run.runId, run.previousRunId, run.nextRunIds])).toEqual([
      [`${threadId}-r1`, undefined, [`${threadId}-r2`]],
      [`${threadId}-r2`, `${threadId}-r1`, []],
    ]);
  });

  it("link a browser call's result to the run that made the call, and the chain says that run waited for the browser", async () => {
    const threadId = "rec-plain-result";
    const frames = await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r1`,
      messages: [userMessage(`${threadId}-u1`, "open the work request list")],
      tools,
    });
    const navigate = startedCalls(frames).find((call) => call.toolCallName === "navigateToScreen")!;
    await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r2`,
      messages: [toolMessage(`${threadId}-t1`, navigate.toolCallId, { status: "succeeded", stage: "displayed" })],
      tools,
    });

    const { body: carrying } = await client.record("kim", `${threadId}-r2`);
    expect(carrying.start).toMatchObject({ trigger: { kind: "tool-result", toolCallIds: [navigate.toolCallId] }, previousRunId: `${threadId}-r1` });
    const { body: chain } = await client.chain("kim", threadId);
    expect(chain.runs[0]).toMatchObject({
      nextRunIds: [`${threadId}-r2`],
      outcome: { type: "success", pendingToolCallIds: [navigate.toolCallId] },
    });
    expect(chain.runs[1]!.previousRunId).toBe(`${threadId}-r1`);
  });

  it("link a stateless conversation's next turn to the run whose render-only call's outcome it carries", async () => {
    const threadId = "rec-plain-recipes";
    const agent = recipesAgent(server.url, server.token("sam"), threadId);
    agent.addMessage(userMessage(`${threadId}-u1`, "I have leftover rice"));
    await agent.runAgent({ runId: `${threadId}-r1`, tools: SAM_DESKTOP.tools });
    const offer = agent.messages
      .flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))
      .find((call) => call.function.name === "offer_recipes")!;
    agent.addMessage(toolMessage(`${threadId}-t1`, offer.id, { status: "succeeded", stage: "displayed" }));
    agent.addMessage(userMessage(`${threadId}-u2`, "something vegetarian instead"));
    await agent.runAgent({ runId: `${threadId}-r2`, tools: SAM_DESKTOP.tools });

    const { body: chain } = await client.chain("sam", threadId);
    expect(chain.runs.map((run) => [run.runId, run.trigger.kind, run.previousRunId, run.nextRunIds])).toEqual([
      [`${threadId}-r1`, "user-message", undefined, [`${threadId}-r2`]],
      [`${threadId}-r2`, "user-message", `${threadId}-r1`, []],
    ]);
  });
});
