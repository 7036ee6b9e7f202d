import type { Logger } from "@tether-agent/tether/server";
import { createScriptedModel, readSseFrames } from "@tether-agent/tether/testing";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HOLD_REPLY } from "../helpers/held-model.ts";
import { attachTo, postRun, startInstance, type Instance } from "../helpers/instances.ts";
import { redisServerBinary, startOwnRedis, type OwnRedis } from "../helpers/own-redis.ts";
import { reachablePostgres, serverSchemas } from "../helpers/postgres.ts";

/**
 * Two instances on one PostgreSQL and a Redis of this file's own, which the
 * tests stop with SIGSTOP while a run streams on A: its connections stay open
 * and nothing answers, as with a frozen host or a network that drops packets
 * without a reset. Nothing on B may wait for it: followers, reconnects and
 * cancels go through the store, and Redis takes over again after SIGCONT.
 */

const postgres = await reachablePostgres();
const binary = redisServerBinary();
const skipped = "skipped" in postgres ? postgres.skipped : binary.skipped;
if (skipped) console.info(`A stalled Redis under two instances: skipped. ${skipped}`);

/** Fails with `what` after `ms`, instead of letting a hang run into the test's timeout. */
async function within<T>(ms: number, what: string, promise: Promise<T> | T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A logger that keeps what it is told, to see what an instance said about Redis. */
function recordingLogger() {
  const lines: string[] = [];
  const logger: Logger = {
    info: (message) => void lines.push(message),
    warn: (message) => void lines.push(message),
    error: (message) => void lines.push(message),
  };
  const count = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
  return { logger, lines, redisDown: () => count(/^Redis did not answer/), redisUp: () => count(/^Redis answers again/) };
}

describe.skipIf(skipped)("a Redis stopped with SIGSTOP under two instances", { timeout: 60_000 }, () => {
  const databaseUrl = "url" in postgres ? postgres.url : "";
  const schemas = "url" in postgres ? serverSchemas(postgres.url) : undefined;
  const schema = schemas?.make("redis_stall") ?? "";
  const logs = { a: recordingLogger(), b: recordingLogger() };
  let redis: OwnRedis;
  let a: Instance;
  let b: Instance;

  const start = (name: "a" | "b") =>
    startInstance({
      databaseUrl,
      redisUrl: redis.url,
      schema,
      name,
      model: createScriptedModel(Array.from({ length: 12 }, () => ({ text: HOLD_REPLY }))),
      logger: logs[name].logger,
    });
  const cancel = (instance: Instance, runId: string) =>
    instance.tether.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: { "Content-Type": "application/json", "x-user": "kim" }, body: "{}" });
  const newThread = (label: string) => `t-stall-${label}-${process.pid}-${Date.now()}`;

  beforeAll(async () => {
    redis = await startOwnRedis();
    a = await start("a");
    b = await start("b");
  });
  // Each test starts with Redis answering and both instances taking it for up.
  beforeEach(async () => {
    await expect.poll(() => logs.a.redisDown() === logs.a.redisUp() && logs.b.redisDown() === logs.b.redisUp(), { timeout: 15_000 }).toBe(true);
  });
  afterEach(() => redis.resume());
  afterAll(async () => {
    redis?.resume();
    await a?.tether.close();
    await b?.tether.close();
    await redis?.stop();
    await schemas?.dropAll();
  });

  it("answers a Last-Event-ID reconnect through B to a finished run at once, from the store", async () => {
    const threadId = newThread("reconnect");
    const runId = `${threadId}-r1`;
    const whole = await readSseFrames(await postRun(a, { threadId, runId })).all();
    expect(whole.at(-1)!.data.type).toBe("RUN_FINISHED");

    redis.stall();
    const resumed = await within(10_000, "the reconnect through B", (async () => readSseFrames(await attachTo(b, threadId, `${runId}:5`)).all())());
    expect(resumed.map((frame) => frame.id)).toEqual(whole.slice(5).map((frame) => frame.id));
  });

  it("keeps a follower through B getting the run's events from the store, through its end, and says Redis is down; after SIGCONT B follows and cancels through Redis again", async () => {
    const threadId = newThread("follow");
    const runId = `${threadId}-r1`;
    const release = a.hold();
    const onA = readSseFrames(await postRun(a, { threadId, runId }));
    await onA.until(10);
    const throughB = readSseFrames(await attachTo(b, threadId));
    await throughB.until(10);

    redis.stall();
    release();
    const fromA = await onA.all();
    const fromB = await within(20_000, "the follower through B", throughB.all());
    expect(fromA.at(-1)!.data.type).toBe("RUN_FINISHED");
    expect(fromB.map((frame) => frame.id)).toEqual(fromA.map((frame) => frame.id));
    expect(fromB.map((frame) => frame.data)).toEqual(fromA.map((frame) => frame.data));
    expect(logs.b.redisDown()).toBeGreaterThan(logs.b.redisUp());

    redis.resume();
    await expect.poll(() => logs.a.redisDown() === logs.a.redisUp() && logs.b.redisDown() === logs.b.redisUp(), { timeout: 15_000 }).toBe(true);
    const next = `${threadId}-r2`;
    const releaseNext = a.hold();
    try {
      const nextOnA = readSseFrames(await postRun(a, { threadId, runId: next }));
      await nextOnA.until(10);
      const nextThroughB = readSseFrames(await attachTo(b, threadId));
      await nextThroughB.until(10);
      // B reads the run's stream again (one reader connection), not the store.
      expect(await redis.clients()).toContain("tether-reader");
      const response = await within(10_000, "the cancel through B", cancel(b, next));
      expect(response.status).toBe(202);
      expect((await nextOnA.all()).at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
      expect((await within(10_000, "the follower through B", nextThroughB.all())).at(-1)!.data).toMatchObject({ outcome: { type: "cancelled" } });
      // Acknowledged on the bus: nothing was recorded in the store for A to find.
      expect(await cancelRecorded(next)).toBe(false);
    } finally {
      releaseNext();
    }
  });

  it("ends a run cancelled through B while Redis is stalled: 202 cancelling, and A finds the request in the store", async () => {
    const threadId = newThread("cancel");
    const runId = `${threadId}-r1`;
    const release = a.hold();
    try {
      const onA = readSseFrames(await postRun(a, { threadId, runId }));
      await onA.until(10);
      const throughB = readSseFrames(await attachTo(b, threadId));
      await throughB.until(10);

      redis.stall();
      const response = await within(15_000, "the cancel through B", cancel(b, runId));
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({ runId, status: "cancelling" });

      expect((await within(15_000, "the run on A", onA.all())).at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
      expect((await within(15_000, "the follower through B", throughB.all())).at(-1)!.data).toMatchObject({ outcome: { type: "cancelled" } });
      expect(await b.store.getRun(runId)).toMatchObject({ status: "cancelled" });
      expect(await cancelRecorded(runId)).toBe(true);
    } finally {
      release();
    }
  });

  it("opens one Redis connection for 200 followers of one run through B, not one each, and serves them all to the end", async () => {
    const threadId = newThread("many");
    const runId = `${threadId}-r1`;
    const release = a.hold();
    try {
      const onA = readSseFrames(await postRun(a, { threadId, runId }));
      await onA.until(10);
      const before = await redis.clients();
      const followers = await Promise.all(Array.from({ length: 200 }, async () => readSseFrames(await attachTo(b, threadId))));
      await Promise.all(followers.map((follower) => follower.until(10)));

      const during = await redis.clients();
      // A: its main connection and its cancel listener; B: the same, and one reader for the run (maybe kept idle from before).
      expect(during.length).toBeLessThanOrEqual(before.length + 1);
      expect(during.filter((name) => name === "tether-reader")).toHaveLength(1);

      release();
      const fromA = await onA.all();
      for (const follower of followers) expect((await follower.all()).map((frame) => frame.id)).toEqual(fromA.map((frame) => frame.id));
    } finally {
      release();
    }
  });

  async function cancelRecorded(runId: string): Promise<boolean> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ recorded: boolean }>(`SELECT cancel_requested_at IS NOT NULL AS recorded FROM "${schema}".runs WHERE run_id = $1`, [
        runId,
      ]);
      return rows[0]?.recorded ?? false;
    } finally {
      await client.end();
    }
  }
});
