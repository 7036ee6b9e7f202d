import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import type { RedisHealth } from "./health.ts";

/** How long a cancel asked on the bus waits for the instance that runs the run to say it stopped it. */
export const CANCEL_ACK_MS = 2000;
/** How long an unread acknowledgement stays in Redis (the asker gave up, or is slow to read it). */
const ACK_TTL_MS = 10_000;
/** How often the asker looks for the acknowledgement (no blocking read: it would take a connection of its own). */
const ACK_POLL_MS = 50;

/** Cancels that cross instances: one Redis channel, `<prefix>cancel`, every instance listens on. */
export interface RedisCancels {
  /**
   * Asks every instance to cancel the run; true once the one that runs it acknowledged, within CANCEL_ACK_MS.
   * False at once while Redis is taken for down, and as soon as a call to it fails or times out.
   */
  request(runId: string): Promise<boolean>;
  /** Sets what stops a run of this instance when asked; it answers true when the run was running here. */
  serve(cancel: (runId: string) => boolean): void;
  close(): Promise<void>;
}

/**
 * Subscribes to the cancel channel. A request carries the run and a fresh
 * acknowledgement key; the instance whose runner stops the run pushes to that
 * key, and the asker looks for it there every ACK_POLL_MS. Only that push
 * confirms a cancel: an instance that does not run the run stays silent, so
 * "nobody answered in time" is an honest "not cancelled here", and the caller
 * falls back (to a cancel request recorded in the store, see redis-hub.ts).
 *
 * @example
 * const cancels = await listenForCancels({ redis, health, prefix: "tether:" });
 * cancels.serve((runId) => runner.cancel(runId));
 */
export async function listenForCancels(options: { redis: Redis; health: RedisHealth; prefix: string }): Promise<RedisCancels> {
  const { redis, health } = options;
  const channel = `${options.prefix}cancel`;
  let cancel: ((runId: string) => boolean) | undefined;
  const subscriber = redis.duplicate({ connectionName: "tether-cancels" });
  subscriber.on("error", () => undefined);
  subscriber.on("message", (from: string, message: string) => {
    if (from !== channel) return;
    const request = parseRequest(message);
    if (!request || !cancel?.(request.runId)) return;
    // A lost acknowledgement only costs the asker its fallback, not the cancel.
    redis
      .multi()
      .lpush(request.ack, "1")
      .pexpire(request.ack, ACK_TTL_MS)
      .exec()
      .catch(() => undefined);
  });
  await subscriber.subscribe(channel);

  return {
    async request(runId) {
      if (health.down) return false;
      const ack = `${options.prefix}cancel-ack:${randomBytes(8).toString("hex")}`;
      try {
        const receivers = await redis.publish(channel, JSON.stringify({ runId, ack }));
        // This instance hears its own request; with no other listener nobody can run the run.
        if (receivers <= 1) return false;
        for (const deadline = Date.now() + CANCEL_ACK_MS; Date.now() < deadline;) {
          if ((await redis.lpop(ack)) !== null) return true;
          await new Promise((resolve) => setTimeout(resolve, ACK_POLL_MS));
        }
        return false;
      } catch (error) {
        health.failed(error);
        return false;
      }
    },
    serve(handler) {
      cancel = handler;
    },
    async close() {
      cancel = undefined;
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}

function parseRequest(message: string): { runId: string; ack: string } | undefined {
  try {
    const parsed = JSON.parse(message) as { runId?: unknown; ack?: unknown };
    if (typeof parsed.runId === "string" && typeof parsed.ack === "string") return { runId: parsed.runId, ack: parsed.ack };
  } catch {
    // Not ours: ignored.
  }
  return undefined;
}
