import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/** Where tests look for Redis: `TETHER_TEST_REDIS_URL`, else the machine's own. */
export const TEST_REDIS_URL = process.env.TETHER_TEST_REDIS_URL || "redis://127.0.0.1:6379";

/** A key prefix no other test, file or process uses. */
export function uniqueRedisPrefix(label: string): string {
  return `tether-test:${label}:${process.pid}:${randomBytes(4).toString("hex")}:`;
}

/**
 * Whether Redis answers: the URL when it does, else why not. With
 * `TETHER_TEST_REQUIRE_REDIS=1` (CI, which has one) an unreachable server
 * fails instead of skipping, so a missing service is never green.
 */
export async function reachableRedis(): Promise<{ url: string } | { skipped: string }> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return { url: TEST_REDIS_URL };
  } catch (error) {
    const where = new URL(TEST_REDIS_URL);
    const why = `Redis at ${where.host} did not answer (${(error as { code?: string }).code ?? (error as Error).message})`;
    if (process.env.TETHER_TEST_REQUIRE_REDIS === "1") throw new Error(`${why}, and TETHER_TEST_REQUIRE_REDIS=1 requires it.`);
    return { skipped: `${why}; start Redis, or point TETHER_TEST_REDIS_URL at one, to run these tests.` };
  } finally {
    client.disconnect();
  }
}

/** Deletes every key under the prefix, at the end of a test file. */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url);
  try {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    client.disconnect();
  }
}
