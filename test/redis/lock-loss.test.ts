import pg from "pg";
import type { Logger } from "@tether-agent/tether/server";
import { createScriptedModel, readSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { INSTANCE_LOCK } from "@tether-agent/tether/internal";
import { HOLD_REPLY } from "../helpers/held-model.ts";
import { attachTo, postRun, sharedServices, startInstance, type Instance } from "../helpers/instances.ts";

/**
 * An instance whose liveness lock's connection breaks while it lives (here
 * pg_terminate_backend; in life a database restart or a network cut).
 * Another instance may now end its runs as lost, so it stops them itself:
 * none finishes twice, and none writes into a thread that moved on.
 */

const { skipped, schemas, databaseUrl, redisUrl } = await sharedServices("An instance losing its database lock mid-run, on PostgreSQL and Redis");

describe.skipIf(skipped)("an instance whose liveness lock's connection is terminated mid-run, on PostgreSQL and Redis", () => {
  const schema = schemas?.make("lock_loss") ?? "";
  const instanceId = `lock-loss-a-${process.pid}-${Date.now()}`;
  // The backend holding A's lock, and no other test's: the lock's second key hashes A's schema and id.
  const lockOfA = `FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = hashtext($2)::oid AND objsubid = 2`;
  const lockKey = [INSTANCE_LOCK, `${schema}:${instanceId}`];
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  // A's model, whose calls keep their abort signals: the stream of a stopped run is aborted.
  const modelOfA = createScriptedModel([{ text: HOLD_REPLY }, { text: HOLD_REPLY }]);
  const modelAborted = () => modelOfA.calls.map((call) => call.abortSignal?.aborted);
  const errors: string[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (message) => void errors.push(message) };
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    a = await startInstance({ databaseUrl, redisUrl, schema, name: "a", model: modelOfA, instanceId, logger });
    b = await startInstance({ databaseUrl, redisUrl, schema, name: "b", model: createScriptedModel([]) });
  });
  afterAll(async () => {
    await a?.tether.close();
    await b?.tether.close();
    await admin.end();
    await schemas?.dropAll();
  });

  const within = <T>(promise: Promise<T>, ms: number, what: string) =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`Not so: ${what} within ${ms} ms.`)), ms).unref())]);
  const lockHolders = async () => (await admin.query(`SELECT pid ${lockOfA}`, lockKey)).rowCount;

  it("stops the run for its clients with RUN_ERROR instance_lost, aborts the model, ends the stored run, and runs again once it holds the lock", async () => {
    const threadId = `t-lock-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    const release = a.hold();
    const onA = readSseFrames(await postRun(a, { threadId, runId }));
    await onA.until(10);
    const throughB = readSseFrames(await attachTo(b, threadId));
    await throughB.until(10);

    // Let go of the model whatever happens, or closing A would wait for the run for ever.
    const [fromA, fromB] = await (async () => {
      const terminated = await admin.query(`SELECT pg_terminate_backend(pid) ${lockOfA}`, lockKey);
      expect(terminated.rowCount).toBe(1);
      return within(Promise.all([onA.all(), throughB.all()]), 15_000, "the run's clients heard its end");
    })().finally(release);

    expect(fromA.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "instance_lost", message: expect.stringContaining("lost its hold on the database") });
    expect(fromB.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "instance_lost" });
    expect(modelAborted()).toEqual([true]);
    expect(errors).toEqual([expect.stringContaining("1 run(s) it was executing were stopped with RUN_ERROR instance_lost")]);
    // Stored by A, or by B's sweep if it came first: the same end either way.
    await vi.waitFor(async () => expect(await b.store.getRun(runId)).toMatchObject({ status: "error", error: { code: "instance_lost" } }), { timeout: 15_000 });

    // A takes its lock back; the thread goes on there, and B's sweep leaves the new run alone.
    await vi.waitFor(async () => expect(await lockHolders()).toBe(1), { timeout: 15_000, interval: 100 });
    const next = `${threadId}-r2`;
    const releaseNext = a.hold();
    const again = readSseFrames(await postRun(a, { threadId, runId: next }));
    await again.until(10);
    expect(await b.store.endRunsOfLostInstances!()).toBe(0);
    releaseNext();
    const after = await again.all();

    expect(after[0]!.data.type).toBe("RUN_STARTED");
    expect(after.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
    expect(await b.store.getRun(next)).toMatchObject({ status: "finished" });
    expect(modelAborted()).toEqual([true, false]);
  }, 60_000);
});
