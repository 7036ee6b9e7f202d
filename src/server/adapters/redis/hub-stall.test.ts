import { afterEach, describe, expect, it } from "vitest";
import { redisServerBinary, startOwnRedis, type OwnRedis } from "../../../../test/helpers/own-redis.ts";
import { createMemoryRunStore } from "../../store/index.ts";
import { createRunHub } from "../../hub/index.ts";
import { createRedisHub } from "./hub.ts";

/** Nothing the hub does waits on a Redis that stopped answering (SIGSTOP on a server of the test's own) past its time limits. */

const { skipped } = redisServerBinary();
if (skipped) console.info(`The Redis hub on a stalled Redis: skipped. ${skipped}`);

/** What the promise settled to, or "no answer" after `ms`. */
async function settledWithin<T>(ms: number, promise: Promise<T>): Promise<{ value: T } | { error: unknown } | "no answer"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"no answer">((resolve) => (timer = setTimeout(() => resolve("no answer"), ms)));
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(skipped)("createRedisHub on a Redis that stopped answering", { timeout: 30_000 }, () => {
  let redis: OwnRedis | undefined;
  afterEach(async () => {
    await redis?.stop();
    redis = undefined;
  });

  it("refuses to start, store_unavailable, instead of waiting for it", async () => {
    redis = await startOwnRedis();
    redis.stall();
    const store = createMemoryRunStore();
    const started = await settledWithin(15_000, createRedisHub({ local: createRunHub({ store }), store, url: redis.url }));
    expect(started).toMatchObject({ error: { code: "store_unavailable" } });
  });

  it("answers a tail and a cancel from what it knows without Redis, and closes, each within its time limits", async () => {
    redis = await startOwnRedis();
    const store = createMemoryRunStore();
    const said: unknown[] = [];
    const hub = await createRedisHub({ local: createRunHub({ store }), store, url: redis.url, onRedisDown: (error) => said.push(error) });
    redis.stall();

    expect(await settledWithin(10_000, hub.tail("r1"))).toEqual({ value: undefined });
    expect(said).toHaveLength(1);
    expect(await settledWithin(10_000, hub.requestCancel!("r1"))).toEqual({ value: false });
    expect(await settledWithin(15_000, hub.close())).toEqual({ value: undefined });
  });
});
