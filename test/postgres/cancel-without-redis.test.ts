import { createScriptedModel, readSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOLD_REPLY } from "../helpers/held-model.ts";
import { postRun, sharedServices, startInstance, type Instance } from "../helpers/instances.ts";

/**
 * Several instances on one PostgreSQL and no Redis: a cancel that lands on
 * another instance than the run's has no bus to travel on, so it is recorded
 * in the store, where the executing instance looks for cancels of its runs.
 */

const { skipped, schemas, databaseUrl } = await sharedServices("A cancel across instances on PostgreSQL without Redis");

describe.skipIf(skipped)("a cancel sent to another instance than the run's, on PostgreSQL without Redis", () => {
  const schema = schemas?.make("pg_cancel") ?? "";
  let a: Instance;
  let b: Instance;

  const start = (name: string) =>
    startInstance({ databaseUrl, redisUrl: "", schema, name, model: createScriptedModel([{ text: HOLD_REPLY }, { text: HOLD_REPLY }]) });

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

  it("answers 202 cancelling through B, and A, finding the request in the store, ends the run cancelled", async () => {
    const threadId = `t-pg-cancel-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    const release = a.hold();
    try {
      const onA = readSseFrames(await postRun(a, { threadId, runId }));
      await onA.until(10);

      const response = await cancel(b, runId);
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ runId, status: "cancelling" });

      expect((await onA.all()).at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
      expect(await b.store.getRun(runId)).toMatchObject({ status: "cancelled" });
    } finally {
      release();
    }
    const next = await readSseFrames(await postRun(b, { threadId, runId: `${threadId}-r2` })).all();
    expect(next.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED" });
  });

  it("still answers run_not_active for a run that already ended", async () => {
    const threadId = `t-pg-ended-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    await readSseFrames(await postRun(a, { threadId, runId })).all();
    const response = await cancel(b, runId);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: { code: "run_not_active" } });
  });
});
