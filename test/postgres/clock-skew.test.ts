import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { ResumeEntry, RunAgentInput } from "@ag-ui/core";
import { createCountingIds } from "@tether-agent/tether/testing";
import { createTetherApp, defineAgent, defineTool, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { createPgRunStore } from "@tether-agent/tether/pg";
import { createScriptedModel, parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { reachablePostgres, serverSchemas } from "../helpers/postgres.ts";

/**
 * Issue 39, clock skew: instances on one PostgreSQL whose clocks disagree.
 * An approval lapses by the database's clock, so an instance 16 minutes
 * ahead neither refuses a fresh answer nor one 16 minutes behind accepts a
 * lapsed one; a lost run ended by an instance whose clock is behind never
 * finishes before it began.
 */

const SKEW_MS = 16 * 60 * 1000;

const postgres = await reachablePostgres();
if ("skipped" in postgres) console.info(`Instances whose clocks disagree, on PostgreSQL: skipped. ${postgres.skipped}`);

/** Asks to approve a transfer after the user's message; answers in words once the result is in. */
const step = (call: LanguageModelV3CallOptions) =>
  call.prompt.at(-1)?.role === "tool" ? { text: "Done." } : { toolCalls: [{ toolName: "transfer", input: { amount: 10 } }] };
const transfer = defineTool({
  name: "transfer",
  description: "Moves money; a person approves every call.",
  parameters: z.object({ amount: z.number() }),
  needsApproval: true,
  approvalMessage: ({ amount }) => `Transfer ${amount}?`,
  execute: ({ amount }) => ({ transferred: amount }),
});

describe.skipIf("skipped" in postgres)("instances on one PostgreSQL whose clocks disagree", () => {
  const url = "url" in postgres ? postgres.url : "";
  const schemas = serverSchemas(url);
  const schema = schemas.make("clock_skew");
  const apps: TetherApp[] = [];

  /** An instance whose own clock is `offsetMs` off; agent `test` asks approvals lapsing after 15 minutes, `quick` after one second. */
  async function instance(name: string, offsetMs: number): Promise<TetherApp> {
    const store = await createPgRunStore({ connectionString: url, schema });
    const model = () => createScriptedModel(Array.from({ length: 20 }, () => step));
    const app = await createTetherApp({
      agents: [
        defineAgent({ id: "test", model: model(), tools: [transfer], browserTools: [] }),
        defineAgent({ id: "quick", model: model(), tools: [transfer], browserTools: [], approvalTimeoutMs: 1000 }),
      ],
      authenticate: (request) => (request.headers.get("x-user") === "kim" ? { id: "kim" } : undefined),
      store,
      logger: silentLogger,
      ids: createCountingIds(`${name}_`),
      now: () => new Date(Date.now() + offsetMs),
    });
    apps.push(app);
    return app;
  }

  let onTime: TetherApp;
  let ahead: TetherApp;
  let behind: TetherApp;
  beforeAll(async () => {
    onTime = await instance("on_time", 0);
    ahead = await instance("ahead", SKEW_MS);
    behind = await instance("behind", -SKEW_MS);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await schemas.dropAll();
  });

  const post = (app: TetherApp, agentId: string, input: Pick<RunAgentInput, "threadId" | "runId"> & Partial<RunAgentInput>) =>
    app.app.request(`/api/agents/${agentId}/run`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-user": "kim" },
      body: JSON.stringify({ messages: [], tools: [], context: [], ...input }),
    });
  const approve = (interruptId: string): ResumeEntry => ({ interruptId, status: "resolved", payload: { approved: true } });

  async function ask(agentId: string, threadId: string) {
    const asked = parseSseFrames(
      await (await post(onTime, agentId, { threadId, runId: `${threadId}-r1`, messages: [{ id: `${threadId}-u1`, role: "user", content: "pay" }] })).text(),
    );
    const finished = asked.at(-1)!.data as { outcome: { type: string; interrupts: Array<{ id: string; expiresAt: string }> } };
    expect(finished.outcome.type).toBe("interrupt");
    return finished.outcome.interrupts[0]!;
  }

  it("accepts an answer through an instance 16 minutes ahead: the approval lapses by the database's clock, not that instance's", async () => {
    const threadId = `t-ahead-${process.pid}-${Date.now()}`;
    const interrupt = await ask("test", threadId);

    const response = await post(ahead, "test", { threadId, runId: `${threadId}-r2`, resume: [approve(interrupt.id)] });

    expect(response.status, await response.clone().text()).toBe(200);
    const answered = parseSseFrames(await response.text());
    expect(answered.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(answered.some((frame) => frame.data.type === "TOOL_CALL_RESULT" && JSON.parse(frame.data.content as string).transferred === 10)).toBe(true);
  });

  it("still refuses an answer past the real expiry with 410 interrupt_expired, through an instance ahead and one 16 minutes behind", async () => {
    const threadId = `t-lapsed-${process.pid}-${Date.now()}`;
    const interrupt = await ask("quick", threadId);
    // Past the expiry by every clock here (the database and this process share the machine's).
    while (Date.now() <= Date.parse(interrupt.expiresAt) + 50) await new Promise((resolve) => setTimeout(resolve, 100));

    for (const [app, runId] of [
      [ahead, `${threadId}-ra`],
      [behind, `${threadId}-rb`],
    ] as const) {
      const response = await post(app, "quick", { threadId, runId, resume: [approve(interrupt.id)] });
      expect(response.status).toBe(410);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("interrupt_expired");
    }
  });

  it("asks approvals that lapse by the database's clock: an instance 16 minutes behind asks one lapsing 15 minutes from now", async () => {
    const threadId = `t-asked-behind-${process.pid}-${Date.now()}`;
    const asked = parseSseFrames(
      await (await post(behind, "test", { threadId, runId: `${threadId}-r1`, messages: [{ id: `${threadId}-u1`, role: "user", content: "pay" }] })).text(),
    );
    const { expiresAt } = (asked.at(-1)!.data as { outcome: { interrupts: Array<{ expiresAt: string }> } }).outcome.interrupts[0]!;

    const minutesLeft = (Date.parse(expiresAt) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(14);
    expect(minutesLeft).toBeLessThanOrEqual(15);
  });
});

describe.skipIf("skipped" in postgres)("a lost run ended by an instance whose clock is behind", () => {
  const url = "url" in postgres ? postgres.url : "";
  const schemas = serverSchemas(url);
  afterAll(() => schemas.dropAll());

  it("never finishes before it began", async () => {
    const schema = schemas.make("clock_lost");
    const began = await createPgRunStore({ connectionString: url, schema });
    await began.beginRun({
      thread: { threadId: "t1", agentId: "test", ownerId: "kim" },
      run: { runId: "r1", userId: "kim", input: {}, log: [] },
      events: [],
      messages: [],
      resolvedToolCallIds: [],
    });
    await began.close(); // as if its process died: the run is left running, its instance gone

    const behind = await createPgRunStore({ connectionString: url, schema, now: () => new Date(Date.now() - SKEW_MS) });
    try {
      expect(await behind.recoverInterruptedRuns()).toBe(1);
      const run = (await behind.getRun("r1"))!;
      expect(run).toMatchObject({ status: "error", error: { code: "instance_lost" } });
      expect(Date.parse(run.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(run.createdAt));
    } finally {
      await behind.close();
    }
  });
});
