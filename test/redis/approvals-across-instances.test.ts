import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { ResumeEntry, RunAgentInput } from "@ag-ui/core";
import { defineTool } from "@tether-agent/tether/server";
import { createScriptedModel, parseSseFrames, readSseFrames, type SseFrame } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { HOLD_REPLY } from "../helpers/held-model.ts";
import { sharedServices, startInstance, type Instance } from "../helpers/instances.ts";

/**
 * Issue 13's approval promise behind a load balancer: an approval asked in a
 * run on instance A is answered through instance B and executes once, also
 * when the same answer reaches A and B at the same time.
 */

const { skipped, schemas, databaseUrl, redisUrl } = await sharedServices("Approvals across instances, on PostgreSQL and Redis");

/** Every execution of the tool, on either instance: the two share this process. */
const executed: string[] = [];
let toolCalls = 0;

const transfer = defineTool({
  name: "transfer",
  description: "Moves money; a person approves every call.",
  parameters: z.object({ amount: z.number() }),
  needsApproval: true,
  approvalMessage: ({ amount }) => `Transfer ${amount}?`,
  execute: ({ amount }, { threadId }) => {
    executed.push(threadId);
    return { transferred: amount };
  },
});

/** Asks for the transfer after the user's message, answers in words once the tool's result is in the prompt. */
const step = (call: LanguageModelV3CallOptions) =>
  call.prompt.at(-1)?.role === "tool"
    ? { text: HOLD_REPLY }
    : { toolCalls: [{ toolName: "transfer", input: { amount: 10 }, toolCallId: `call_${++toolCalls}` }] };

const approve = (interruptId: string, approved = true): ResumeEntry => ({ interruptId, status: "resolved", payload: { approved } });

describe.skipIf(skipped)("an approval asked on one instance and answered on another, on PostgreSQL and Redis", () => {
  const schema = schemas?.make("redis_approvals") ?? "";
  let a: Instance;
  let b: Instance;

  const start = (name: string) =>
    startInstance({ databaseUrl, redisUrl, schema, name, model: createScriptedModel(Array.from({ length: 40 }, () => step)), tools: [transfer] });

  beforeAll(async () => {
    a = await start("a");
    b = await start("b");
  });
  afterAll(async () => {
    await a?.tether.close();
    await b?.tether.close();
    await schemas?.dropAll();
  });

  const post = (instance: Instance, input: Pick<RunAgentInput, "threadId" | "runId"> & Partial<RunAgentInput>) =>
    instance.tether.app.request("/api/agents/test/run", {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-user": "kim" },
      body: JSON.stringify({ messages: [], tools: [], context: [], ...input }),
    });
  const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;
  const toolResults = (seen: SseFrame[]) => seen.filter((frame) => frame.data.type === "TOOL_CALL_RESULT");

  /** A run on A that asks to approve one transfer; the interrupt it ends with. */
  async function askOnA(threadId: string) {
    const asked = parseSseFrames(
      await (await post(a, { threadId, runId: `${threadId}-r1`, messages: [{ id: `${threadId}-u1`, role: "user", content: "pay" }] })).text(),
    );
    const finished = asked.at(-1)!.data as { type: string; outcome: { type: string; interrupts: Array<{ id: string; message: string }> } };
    expect(finished.type).toBe("RUN_FINISHED");
    expect(finished.outcome.type).toBe("interrupt");
    expect(finished.outcome.interrupts).toHaveLength(1);
    expect(finished.outcome.interrupts[0]!.message).toBe("Transfer 10?");
    return finished.outcome.interrupts[0]!;
  }

  it("asked on A, answered through B: the tool executes once and the stream through B ends RUN_FINISHED", async () => {
    const threadId = `t-appr-${process.pid}-${Date.now()}`;
    const interrupt = await askOnA(threadId);
    expect(executed.filter((id) => id === threadId)).toEqual([]);

    const response = await post(b, { threadId, runId: `${threadId}-r2`, resume: [approve(interrupt.id)] });
    expect(response.status).toBe(200);
    const answered = parseSseFrames(await response.text());
    expect(answered[0]!.data.type).toBe("RUN_STARTED");
    expect(answered.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(toolResults(answered).map((frame) => JSON.parse(frame.data.content as string))).toEqual([{ transferred: 10 }]);
    expect(executed.filter((id) => id === threadId)).toEqual([threadId]);
    expect(await a.store.getInterrupt(interrupt.id)).toMatchObject({ status: "resolved", resolvedByRunId: `${threadId}-r2` });
    expect(await a.store.getPendingInterrupts(threadId)).toEqual([]);
  });

  it("the same answer through A and through B at once: one run executes the tool, the other follows it live through its own instance, and later repeats act on nothing", async () => {
    const threadId = `t-dup-${process.pid}-${Date.now()}`;
    const interrupt = await askOnA(threadId);
    // Whichever run wins stays live (its model held after the tool ran) while the other is decided.
    const releases = [a.hold(), b.hold()];
    const release = () => releases.forEach((letGo) => letGo());
    let won: SseFrame[];
    let winnerRunId: string;
    let loserRunId: string;
    try {
      const [viaA, viaB] = await Promise.all([
        post(a, { threadId, runId: `${threadId}-ra`, resume: [approve(interrupt.id)] }),
        post(b, { threadId, runId: `${threadId}-rb`, resume: [approve(interrupt.id)] }),
      ]);
      expect([viaA.status, viaB.status]).toEqual([200, 200]);
      // The follower is told whose run it follows; the winner is not.
      const [winner, follower] = viaA.headers.get("x-tether-repeat-of") === null ? [viaA, viaB] : [viaB, viaA];
      winnerRunId = `${threadId}-${winner === viaA ? "ra" : "rb"}`;
      loserRunId = `${threadId}-${winner === viaA ? "rb" : "ra"}`;
      expect(follower.headers.get("x-tether-repeat-of")).toBe(winnerRunId);

      // The winner executed the tool and is still running: the follower came while it was live, on the other instance.
      const stream = readSseFrames(winner);
      const followed = readSseFrames(follower);
      while (toolResults(stream.seen).length === 0) await stream.until(stream.seen.length + 1);
      while (toolResults(followed.seen).length === 0) await followed.until(followed.seen.length + 1);
      expect(executed.filter((id) => id === threadId)).toHaveLength(1);
      expect(await a.store.getRun(winnerRunId)).toMatchObject({ status: "running" });
      release();
      won = await stream.all();
      expect(await followed.all()).toEqual(won);
    } finally {
      release(); // a failed expectation must not leave the next test held
    }
    expect(won.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", runId: winnerRunId, outcome: { type: "success" } });
    expect(toolResults(won)).toHaveLength(1);
    expect(executed.filter((id) => id === threadId)).toHaveLength(1);
    expect(await a.store.getRun(loserRunId)).toBeUndefined();
    expect(await b.store.getInterrupt(interrupt.id)).toMatchObject({ status: "resolved", resolvedByRunId: winnerRunId });

    // After the run: the same answer again, through either instance, is the same run again (200, its frames), not a new execution.
    for (const [instance, runId] of [
      [a, `${threadId}-again-a`],
      [b, `${threadId}-again-b`],
    ] as const) {
      const repeat = await post(instance, { threadId, runId, resume: [approve(interrupt.id)] });
      expect(repeat.status).toBe(200);
      expect(parseSseFrames(await repeat.text())).toEqual(won);
      expect(await instance.store.getRun(runId)).toBeUndefined();
    }
    // A different answer to the answered interrupt is refused.
    const changed = await post(b, { threadId, runId: `${threadId}-changed`, resume: [approve(interrupt.id, false)] });
    expect(changed.status).toBe(409);
    expect(await errorCode(changed)).toBe("resume_conflict");
    expect(executed.filter((id) => id === threadId)).toHaveLength(1);
    expect((await a.store.listRuns(threadId)).map((run) => run.runId)).toEqual([`${threadId}-r1`, winnerRunId]);
  });

  it("ten rounds of the same answer through A and B at once, nothing held: each executes once, and both answers get that run's events", async () => {
    for (let round = 0; round < 10; round++) {
      const threadId = `t-race-${process.pid}-${Date.now()}-${round}`;
      const interrupt = await askOnA(threadId);
      const responses = await Promise.all([
        post(a, { threadId, runId: `${threadId}-ra`, resume: [approve(interrupt.id)] }),
        post(b, { threadId, runId: `${threadId}-rb`, resume: [approve(interrupt.id)] }),
      ]);
      // Whether the other answer came while the run was going or after it ended, it is that run again.
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      const bodies = await Promise.all(responses.map(async (response) => parseSseFrames(await response.text())));
      expect(bodies[1]).toEqual(bodies[0]);
      expect(bodies[0]!.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
      expect(executed.filter((id) => id === threadId)).toHaveLength(1);
      expect(await a.store.listRuns(threadId)).toHaveLength(2);
    }
  });
});
