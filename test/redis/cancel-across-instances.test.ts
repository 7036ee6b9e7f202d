import { createScriptedModel, readSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOLD_REPLY } from "../helpers/held-model.ts";
import { attachTo, postRun, sharedServices, startInstance, type Instance } from "../helpers/instances.ts";

/**
 * A cancel behind a load balancer: the run executes on instance A, the
 * cancel lands on B, and B passes it to A through Redis.
 */

const { skipped, schemas, databaseUrl, redisUrl } = await sharedServices("A cancel across instances, on PostgreSQL and Redis");

describe.skipIf(skipped)("a cancel sent to another instance than the run's, on PostgreSQL and Redis", () => {
  const schema = schemas?.make("redis_cancel") ?? "";
  let a: Instance;
  let b: Instance;

  const start = (name: string) =>
    startInstance({ databaseUrl, redisUrl, schema, name, model: createScriptedModel([{ text: HOLD_REPLY }, { text: HOLD_REPLY }, { text: HOLD_REPLY }]) });

  beforeAll(async () => {
    a = await start("a");
    b = await start("b");
  });
  afterAll(async () => {
    await a?.tether.close();
    await b?.tether.close();
    await schemas?.dropAll();
  });

  const cancel = (instance: Instance, runId: string) =>
    instance.tether.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: { "Content-Type": "application/json", "x-user": "kim" }, body: "{}" });

  it("reaches A through Redis: 202 cancelling, clients through A and B hear RUN_FINISHED cancelled, and the thread goes on through B", async () => {
    const threadId = `t-cancel-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    const release = a.hold();
    const onA = readSseFrames(await postRun(a, { threadId, runId }));
    await onA.until(10);
    const throughB = readSseFrames(await attachTo(b, threadId));
    await throughB.until(10);

    const response = await cancel(b, runId);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ runId, status: "cancelling" });
    const [fromA, fromB] = await Promise.all([onA.all(), throughB.all()]);
    release();

    expect(fromA.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
    expect(fromB.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
    expect(fromB.map((frame) => frame.id)).toEqual(fromA.map((frame) => frame.id));
    expect(await b.store.getRun(runId)).toMatchObject({ status: "cancelled" });

    const next = await readSseFrames(await postRun(b, { threadId, runId: `${threadId}-r2` })).all();
    expect(next[0]!.data.type).toBe("RUN_STARTED");
    expect(next.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED" });
    expect(next.at(-1)!.data.outcome).not.toEqual({ type: "cancelled" });
  });

  it("records the cancel in the store when A does not acknowledge within about 2 s: 202 cancelling, and A, finding it there, ends the run cancelled", async () => {
    const threadId = `t-silent-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    const release = a.hold();
    try {
      const onA = readSseFrames(await postRun(a, { threadId, runId }));
      await onA.until(10);
      // A hears the request but does not stop the run (say, it is ending it already, or the request came as it restarted).
      a.tether.hub.serveCancels!(() => false);
      try {
        const started = Date.now();
        const response = await cancel(b, runId);
        const waited = Date.now() - started;

        expect(response.status).toBe(202);
        expect(await response.json()).toEqual({ runId, status: "cancelling" });
        expect(waited).toBeGreaterThanOrEqual(1900);
        expect((await b.store.getRun(runId))?.status).toBe("running");
      } finally {
        a.tether.hub.serveCancels!((id) => a.tether.runner.cancel(id));
      }
      // A looks for cancels of its runs in the store every second, without Redis.
      expect((await onA.all()).at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
      expect(await b.store.getRun(runId)).toMatchObject({ status: "cancelled" });
    } finally {
      release();
    }
  });

  it("answers run_not_active from B for a run that already ended, without asking the bus", async () => {
    const threadId = `t-ended-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    await readSseFrames(await postRun(a, { threadId, runId })).all();
    const response = await cancel(b, runId);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { code: "run_not_active" } });
  });
});
