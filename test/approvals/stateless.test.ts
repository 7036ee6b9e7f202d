import type { Message, ResumeEntry } from "@ag-ui/core";
import { defineTool } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedApp } from "../helpers/scripted-app.ts";

const SECRET = "stateless-test-secret";
const approve = (interruptId: string): ResumeEntry => ({ interruptId, status: "resolved", payload: { approved: true } });

/** An agent in client (stateless) history mode whose tool needs approval, with a counter of real executions. */
async function statelessApp(
  executed: number[],
  steps: Parameters<typeof createScriptedApp>[0] = [{ toolCalls: [{ toolName: "pay", input: { amount: 10 } }] }, { text: "Paid." }],
) {
  const pay = defineTool({
    name: "pay",
    description: "Pays an amount.",
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => {
      executed.push(amount);
      return { paid: amount };
    },
  });
  return createScriptedApp(steps, {
    tools: [pay],
    agent: { history: "client" },
    secret: SECRET,
  });
}

/** The first run: the client keeps the history it was sent, as a stateless client does. */
async function askToPay(executed: number[]) {
  const app = await statelessApp(executed);
  const frames = await app.run({ threadId: "t", runId: "r1", messages: [{ id: "u1", role: "user", content: "pay 10" }] });
  const [interrupt] = frames.at(-1)!.data.outcome.interrupts as Array<{ id: string; toolCallId: string }>;
  const snapshot = frames.find((frame) => frame.data.type === "MESSAGES_SNAPSHOT")!.data.messages as Message[];
  return { app, interrupt: interrupt!, history: snapshot };
}

describe("approvals in stateless (client history) mode", () => {
  it("signs each interrupt's id, binding the thread, the call, the tool and its arguments", async () => {
    const { interrupt } = await askToPay([]);
    expect(interrupt.id).toMatch(/^it1\.[\w-]+\.[\w-]+$/);
    const claims = JSON.parse(Buffer.from(interrupt.id.split(".")[1]!, "base64url").toString("utf8"));
    expect(claims).toMatchObject({ threadId: "t", toolCallId: interrupt.toolCallId, toolName: "pay", userId: "kim", argumentsHash: expect.any(String) });
  });

  it("takes the answer with the resume trigger Tether's session sends, which names the signed interrupt id", async () => {
    const executed: number[] = [];
    const { app, interrupt, history } = await askToPay(executed);
    expect(interrupt.id.length).toBeGreaterThan(128);
    const trigger = { kind: "resume", parentRunId: "r1", interruptIds: [interrupt.id] };
    const response = await app.post({
      threadId: "t",
      runId: "r2",
      messages: history,
      resume: [approve(interrupt.id)],
      forwardedProps: { tether: { trigger } },
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(executed).toEqual([10]);
  });

  it("refuses, on an instance that never saw the answer, an approval whose call already has its result in the history", async () => {
    const executed: number[] = [];
    const { interrupt, history } = await askToPay(executed);
    const other = await statelessApp(executed, [{ text: "Paid." }]);
    const frames = parseSseFrames(await (await other.post({ threadId: "t", runId: "r2", messages: history, resume: [approve(interrupt.id)] })).text());
    expect(executed).toEqual([10]);
    // The client now holds the call's result, as the run streamed it.
    const result = frames.find((frame) => frame.data.type === "TOOL_CALL_RESULT")!.data;
    const held: Message[] = [...history, { id: "pay-result", role: "tool", toolCallId: result.toolCallId, content: result.content }];
    // A third instance, with a store of its own, gets the same answer again with that history.
    const third = await statelessApp(executed, [{ text: "Paid." }]);
    const response = await third.post({ threadId: "t", runId: "r3", messages: held, resume: [approve(interrupt.id)] });
    expect(response.status).toBe(409);
    expect((await response.json()).error).toMatchObject({ code: "resume_conflict", message: expect.stringContaining(interrupt.toolCallId) });
    expect(executed).toEqual([10]);
  });

  it("refuses an approval for arguments other than those shown", async () => {
    const executed: number[] = [];
    const { app, interrupt, history } = await askToPay(executed);
    const tampered = history.map((message) =>
      message.role === "assistant" && message.toolCalls
        ? { ...message, toolCalls: message.toolCalls.map((call) => ({ ...call, function: { ...call.function, arguments: '{"amount":1000000}' } })) }
        : message,
    );
    const response = await app.post({ threadId: "t", runId: "r2", messages: tampered, resume: [approve(interrupt.id)] });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: "resume_invalid", message: expect.stringMatching(/same arguments/) });
    expect(executed).toEqual([]);
  });

  it("refuses an altered token", async () => {
    const executed: number[] = [];
    const { app, interrupt, history } = await askToPay(executed);
    const [prefix, payload, signature] = interrupt.id.split(".") as [string, string, string];
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), userId: "lee" })).toString("base64url");
    for (const forged of [`${prefix}.${payload}.${signature.slice(0, -2)}xx`, `${prefix}.${forgedPayload}.${signature}`]) {
      const response = await app.post({ threadId: "t", runId: `r-${forged.length}-${forged.at(-1)}`, messages: history, resume: [approve(forged)] });
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe("interrupt_unknown");
    }
    expect(executed).toEqual([]);
  });

  it("honours an approval after a restart that kept nothing but the secret, and only once", async () => {
    const executed: number[] = [];
    const { interrupt, history } = await askToPay(executed);
    // A new process: a new, empty store; the same secret.
    const restarted = await statelessApp(executed, [{ text: "Paid." }]);
    const body = await (await restarted.post({ threadId: "t", runId: "r2", messages: history, resume: [approve(interrupt.id)] })).text();
    const frames = parseSseFrames(body);
    expect(body).not.toMatch(/"error"/);
    expect(frames.find((frame) => frame.data.type === "TOOL_CALL_RESULT")?.data).toMatchObject({ toolCallId: interrupt.toolCallId, content: '{"paid":10}' });
    expect(executed).toEqual([10]);
    // The same approval again is the same result, not a second payment.
    const again = await restarted.post({ threadId: "t", runId: "r3", messages: history, resume: [approve(interrupt.id)] });
    expect(again.status).toBe(200);
    await again.text();
    expect(executed).toEqual([10]);
  });
});
