import { Redis } from "ioredis";
import { TetherError } from "../../protocol/index.ts";
import type { RunStore } from "../store/port.ts";
import type { RunHub } from "./hub-port.ts";
import { followRemote, type BlockingConnections } from "./redis-follow.ts";
import { listenForCancels } from "./redis-cancel.ts";
import { publishRun } from "./redis-publish.ts";
import { DEFAULT_REDIS_PREFIX, decodeEntries, isTerminal, streamKey } from "./redis-stream.ts";

export interface RedisHubOptions {
  /** The in-process hub: it runs this instance's runs and serves their followers here. */
  local: RunHub;
  /** The store every instance shares: followers of another instance's run read its older part there. */
  store: RunStore;
  /** Redis, e.g. `redis://127.0.0.1:6379` (`TETHER_REDIS_URL`). */
  url: string;
  /** Prefix of every key. Default `tether:`; instances that share runs must share it. */
  prefix?: string;
  /** Told once per outage when a run's events cannot be published; they are tried again. */
  onPublishError?: (error: unknown, runId: string) => void;
}

/** Idle blocking connections kept for the next follower; more are closed when given back. */
const IDLE_CONNECTIONS = 16;
/** How long close waits for runs' last events to reach Redis. */
const CLOSE_WAIT_MS = 2000;

/**
 * A RunHub for several instances: the local hub executes this instance's runs
 * and serves their followers here (the fast path); each run's events are also
 * published to a Redis stream, from which any other instance serves that
 * run's live tail and `Last-Event-ID` reconnects. Nothing is lost at the seam:
 * the stream's entry ids are the events' numbers. A cancel that reaches an
 * instance other than the run's reaches the run's through a Redis channel.
 *
 * @example
 * const local = createRunHub({ store });
 * const hub = await createRedisHub({ local, store, url: process.env.TETHER_REDIS_URL });
 */
export async function createRedisHub(options: RedisHubOptions): Promise<RunHub> {
  const { local, store } = options;
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  const redis = new Redis(options.url, { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 3 });
  // Lost connections are retried by the client; without a listener an error event would crash the process.
  redis.on("error", () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new TetherError("store_unavailable", `Redis at ${describeRedis(options.url)} did not answer. Check TETHER_REDIS_URL and that Redis is running.`, {
      cause: error,
    });
  }

  const idle: Redis[] = [];
  const busy = new Set<Redis>();
  const connections: BlockingConnections = {
    borrow() {
      let connection = idle.pop();
      if (!connection) {
        connection = redis.duplicate();
        connection.on("error", () => undefined);
      }
      busy.add(connection);
      return connection;
    },
    release(connection) {
      busy.delete(connection);
      if (connection.status === "ready" && idle.length < IDLE_CONNECTIONS && !closed) idle.push(connection);
      else connection.disconnect();
    },
  };
  const cancels = await listenForCancels({ redis, connections, prefix });
  const publishers = new Set<Promise<void>>();
  const stopPublishing = new AbortController();
  let closed = false;

  return {
    open(run) {
      const channel = local.open(run);
      const publishing = publishRun({
        redis,
        local,
        runId: run.runId,
        key: streamKey(prefix, run.runId),
        signal: stopPublishing.signal,
        onError: (error) => options.onPublishError?.(error, run.runId),
      })
        .catch((error: unknown) => options.onPublishError?.(error, run.runId))
        .finally(() => publishers.delete(publishing));
      publishers.add(publishing);
      return channel;
    },
    isLive: local.isLive,
    lastSeq: local.lastSeq,
    isEnding: local.isEnding,
    async tail(runId) {
      const here = await local.tail(runId);
      if (here) return here;
      let last: [string, string[]] | undefined;
      try {
        [last] = (await redis.xrevrange(streamKey(prefix, runId), "+", "-", "COUNT", 1)) as [string, string[]][];
      } catch {
        return undefined; // Redis is down: the store's word is all there is (followers poll it meanwhile)
      }
      if (!last) return undefined;
      const [event] = decodeEntries([last]);
      if (isTerminal(event!.event)) return { lastSeq: event!.seq, live: false };
      // A stream that stops short of its end: its instance died, and whoever ended the run wrote the end to the store only.
      if ((await store.getRun(runId))?.status !== "running") return undefined;
      return { lastSeq: event!.seq, live: true };
    },
    follow(runId, afterSeq, signal) {
      // This instance's own runs (and those it still holds) are followed in memory.
      if (local.lastSeq(runId) !== undefined) return local.follow(runId, afterSeq, signal);
      return followRemote({ store, connections, key: streamKey(prefix, runId), runId, afterSeq, signal });
    },
    settleThread: local.settleThread,
    requestCancel: cancels.request,
    serveCancels: cancels.serve,
    async close() {
      closed = true;
      await cancels.close();
      await local.close();
      // Runs have ended (the app drains them first): their last events are on their way to Redis.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(publishers), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
      stopPublishing.abort();
      for (const connection of [...idle.splice(0), ...busy]) connection.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** The Redis server's address, without its password. */
function describeRedis(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "6379"}`;
  } catch {
    return "the given URL";
  }
}
