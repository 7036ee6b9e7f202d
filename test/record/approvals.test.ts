import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { recordClient, userMessage, type RecordClient } from "./record-client.ts";

/** Lee's approved and rejected closes of a work request, replayed through the demo server, in their records. */

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

async function askAndAnswer(threadId: string, requestId: string, approved: boolean) {
  const asked = await client.run("lee", "workdesk", {
    threadId,
    runId: `${threadId}-r1`,
    messages: [userMessage(`${threadId}-u1`, `close ${requestId} as fixed`)],
    tools,
  });
  const interrupt = (asked.at(-1)!.data as { outcome: { interrupts: Array<{ id: string; toolCallId: string }> } }).outcome.interrupts[0]!;
  await client.run("lee", "workdesk", {
    threadId,
    runId: `${threadId}-r2`,
    tools,
    resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved } }],
    forwardedProps: { tether: { trigger: { kind: "resume", parentRunId: `${threadId}-r1`, interruptIds: [interrupt.id] } } },
  });
  return interrupt;
}

describe("run records of approvals", () => {
  it.each([
    { approved: true, requestId: "R-1001", answer: "approved" },
    { approved: false, requestId: "R-1004", answer: "rejected" },
  ])("records the approval asked, the answer ($answer) and the run it started", async ({ approved, requestId, answer }) => {
    const threadId = `rec-approval-${answer}`;
    const interrupt = await askAndAnswer(threadId, requestId, approved);

    const { body: asking } = await client.record("lee", `${threadId}-r1`);
    expect(asking.outcome).toEqual({ type: "interrupt", interruptIds: [interrupt.id] });
    expect(asking.start.nextRunIds).toEqual([`${threadId}-r2`]);
    const asked = asking.modelCalls.flatMap((call) => call.toolCalls).find((call) => call.status === "approval");
    expect(asked).toMatchObject({
      toolCallId: interrupt.toolCallId,
      location: "server",
      interruptId: interrupt.id,
      arguments: expect.stringContaining(requestId),
    });
    expect(asked!.result).toBeUndefined();
    expect(asking.output.events.map((event) => event.type)).toEqual(expect.arrayContaining(["STATE_SNAPSHOT", "MESSAGES_SNAPSHOT", "RUN_FINISHED"]));

    const { body: answering } = await client.record("lee", `${threadId}-r2`);
    expect(answering.start).toEqual({
      trigger: { kind: "resume", answers: [{ interruptId: interrupt.id, status: "resolved", approved }] },
      previousRunId: `${threadId}-r1`,
      nextRunIds: [],
    });
    expect(answering.complete).toBe(true);
    // The answered call's result went to the model before it spoke.
    expect(JSON.stringify(answering.output.events)).toContain(interrupt.toolCallId);
    expect(answering.modelCalls.length).toBeGreaterThan(0);

    const { body: chain } = await client.chain("lee", threadId);
    expect(chain.runs.map((run) => run.trigger.summary)).toEqual([`close ${requestId} as fixed`, `approval: ${answer}`]);
  });
});
