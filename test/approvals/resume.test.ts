import type { ResumeEntry } from "@ag-ui/core";
import { defineTool } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedApp, types } from "../helpers/scripted-app.ts";

const user = (id: string, content: string) => ({ id, role: "user" as const, content });
const approve = (interruptId: string, extra: Record<string, unknown> = {}): ResumeEntry => ({
  interruptId,
  status: "resolved",
  payload: { approved: true, ...extra },
});
const reject = (interruptId: string): ResumeEntry => ({ interruptId, status: "resolved", payload: { approved: false, comment: "no" } });

/** A thread whose first run asked to approve two transfers at once. */
async function twoApprovals() {
  const executed: number[] = [];
  const transfer = defineTool({
    name: "transfer",
    description: "Moves money.",
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    approvalMessage: ({ amount }) => `Transfer ${amount}?`,
    execute: ({ amount }) => {
      executed.push(amount);
      return { transferred: amount };
    },
  });
  const app = await createScriptedApp(
    [
      {
        toolCalls: [
          { toolName: "transfer", input: { amount: 10 } },
          { toolName: "transfer", input: { amount: 20 } },
        ],
      },
      { text: "Done." },
      { text: "Again." },
    ],
    { tools: [transfer] },
  );
  const first = await app.run({ threadId: "t1", runId: "r1", messages: [user("u1", "pay both")] });
  const [ten, twenty] = first.at(-1)!.data.outcome.interrupts as Array<{ id: string; toolCallId: string; message: string }>;
  const history = (await app.store.getMessages("t1")) as unknown[];
  const resume = async (runId: string, entries: ResumeEntry[], messages: unknown[] = history) => {
    const response = await app.post({ threadId: "t1", runId, messages: messages as never, resume: entries });
    return { status: response.status, body: await response.text() };
  };
  return { app, executed, first, ten: ten!, twenty: twenty!, history, resume };
}

describe("answering approvals", () => {
  it("asks both of two approvals in one run, and acts on each answer once", async () => {
    const { first, ten, twenty, executed, resume, app } = await twoApprovals();
    expect(first.at(-1)!.data.outcome.type).toBe("interrupt");
    expect([ten.message, twenty.message]).toEqual(["Transfer 10?", "Transfer 20?"]);
    expect(executed).toEqual([]);

    const { status, body } = await resume("r2", [approve(ten.id), reject(twenty.id)]);
    expect(status).toBe(200);
    const frames = parseSseFrames(body);
    expect(executed).toEqual([10]);
    const results = frames.filter((frame) => frame.data.type === "TOOL_CALL_RESULT").map((frame) => [frame.data.toolCallId, JSON.parse(frame.data.content)]);
    expect(results).toEqual([
      [ten.toolCallId, { transferred: 10 }],
      [twenty.toolCallId, expect.objectContaining({ status: "rejected", comment: "no" })],
    ]);
    expect(types(frames).at(-1)).toBe("RUN_FINISHED");
    // The model continued, seeing both results.
    expect(JSON.stringify(app.model.calls[1]!.prompt)).toContain("rejected");
    expect(await app.store.getPendingInterrupts("t1")).toEqual([]);
  });

  it("refuses a run that ignores a pending approval: interrupt_pending, from the server itself", async () => {
    const { resume, app, ten, history } = await twoApprovals();
    const ignored = await app.post({ threadId: "t1", runId: "r2", messages: [...(history as never[]), user("u2", "never mind")] });
    expect(ignored.status).toBe(409);
    expect((await ignored.json()).error.code).toBe("interrupt_pending");
    const half = await resume("r3", [approve(ten.id)]);
    expect(half.status).toBe(409);
    expect(JSON.parse(half.body).error).toMatchObject({ code: "interrupt_pending", details: { interruptIds: [expect.any(String)] } });
  });

  it("refuses an answer to an interrupt that does not exist: interrupt_unknown", async () => {
    const { resume, ten, twenty } = await twoApprovals();
    const { status, body } = await resume("r2", [approve(ten.id), approve(twenty.id), approve("int_nope")]);
    expect(status).toBe(404);
    expect(JSON.parse(body).error.code).toBe("interrupt_unknown");
  });

  it("refuses an answer given in another thread: interrupt_thread_mismatch", async () => {
    const { app, ten } = await twoApprovals();
    const response = await app.post({ threadId: "elsewhere", runId: "e1", messages: [user("e-u1", "hi")], resume: [approve(ten.id)] });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe("interrupt_thread_mismatch");
  });

  it("refuses an answer that does not fit the response schema: resume_invalid", async () => {
    const { resume, ten, twenty, executed } = await twoApprovals();
    for (const bad of [
      [{ interruptId: ten.id, status: "resolved", payload: { approved: "yes" } }, approve(twenty.id)],
      [{ interruptId: ten.id, status: "resolved" }, approve(twenty.id)],
      [{ interruptId: ten.id, status: "resolved", payload: { approved: true, amount: 1_000_000 } }, approve(twenty.id)],
      [approve(ten.id), approve(ten.id), approve(twenty.id)],
    ] as ResumeEntry[][]) {
      const { status, body } = await resume(`bad-${Math.random()}`, bad);
      expect(status).toBe(400);
      expect(JSON.parse(body).error.code).toBe("resume_invalid");
    }
    expect(executed).toEqual([]);
  });

  it("gives the same result for the same answer sent twice, and runs nothing again", async () => {
    const { resume, ten, twenty, executed } = await twoApprovals();
    const answers = [approve(ten.id), reject(twenty.id)];
    const once = parseSseFrames((await resume("r2", answers)).body);
    const twice = await resume("r3", answers);
    expect(twice.status).toBe(200);
    expect(parseSseFrames(twice.body)).toEqual(once);
    expect(executed).toEqual([10]);
  });

  it("refuses a different answer to an interrupt already answered: resume_conflict", async () => {
    const { resume, ten, twenty, executed } = await twoApprovals();
    await resume("r2", [approve(ten.id), reject(twenty.id)]);
    const { status, body } = await resume("r3", [reject(ten.id), reject(twenty.id)]);
    expect(status).toBe(409);
    expect(JSON.parse(body).error.code).toBe("resume_conflict");
    expect(executed).toEqual([10]);
  });

  it("lets the user move on: cancelling every approval alongside a new message runs nothing", async () => {
    const { app, ten, twenty, executed, history } = await twoApprovals();
    const response = await app.post({
      threadId: "t1",
      runId: "r2",
      messages: [...(history as never[]), user("u2", "forget it")],
      resume: [
        { interruptId: ten.id, status: "cancelled" },
        { interruptId: twenty.id, status: "cancelled" },
      ],
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(executed).toEqual([]);
    // Each call's result sits right after it, before the new message.
    const stored = await app.store.getMessages("t1");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "user", "assistant"]);
  });
});
