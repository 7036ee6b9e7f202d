import { Redis } from "ioredis";
import { redisHub } from "@tether-agent/tether/redis";
import { createTetherApp, defineAgent, silentLogger } from "@tether-agent/tether/server";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createScriptedModel, readSseFrames } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { reachableRedis, uniqueRedisPrefix } from "../helpers/redis.ts";

/** The Redis hub given by an app itself (`hub: redisHub(...)`, the /redis subpath), with settings of its own. */

const redis = await reachableRedis();
const skipped = "skipped" in redis;

const app = (hub: Parameters<typeof createTetherApp>[0]["hub"], redisUrl?: string) =>
  createTetherApp({
    agents: [defineAgent({ id: "test", model: createScriptedModel([{ text: "hello" }]), tools: [], browserTools: [] })],
    authenticate: () => ({ id: "kim" }),
    store: createMemoryRunStore(),
    logger: silentLogger,
    ...(hub ? { hub } : {}),
    ...(redisUrl !== undefined ? { redisUrl } : {}),
  });

describe.skipIf(skipped)("createTetherApp({ hub: redisHub(...) })", () => {
  it("publishes each run's events to Redis under the app's own key prefix", async () => {
    const url = (redis as { url: string }).url;
    const prefix = uniqueRedisPrefix("hub-option");
    const tether = await app(redisHub({ url, prefix }));
    const client = new Redis(url);
    try {
      const response = await tether.app.request("/api/agents/test/run", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          threadId: `t-${prefix}`,
          runId: "r1",
          messages: [{ id: "m1", role: "user", content: "hi" }],
          tools: [],
          context: [],
          state: {},
        }),
      });
      const frames = await readSseFrames(response).all();
      expect(frames.at(-1)!.data.type).toBe("RUN_FINISHED");
      // What other instances read: the run's stream, every event of it, under this app's prefix.
      await expect.poll(() => client.xlen(`${prefix}run:r1`)).toBe(frames.length);
    } finally {
      await tether.close();
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    }
  });
});

describe("createTetherApp's hub and redisUrl", () => {
  it("refuses both at once with config_invalid: the hub's settings take the URL", async () => {
    await expect(app(redisHub({ url: "redis://127.0.0.1:1" }), "redis://127.0.0.1:6379")).rejects.toMatchObject({ code: "config_invalid" });
  });
});
