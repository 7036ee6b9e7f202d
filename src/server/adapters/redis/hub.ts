import { Redis } from "ioredis";
import { TetherError } from "../../../protocol/index.ts";
import type { RunStore } from "../../store/index.ts";
import { type RunHub, watchStoredCancels, type StoredCancelWatcher } from "../../hub/index.ts";
import { listenForCancels } from "./cancel.ts";
import { createRemoteFollowers } from "./follow.ts";
import { watchRedisHealth } from "./health.ts";
import { publishRun } from "./publish.ts";
import { createReadConnections } from "./read-connections.ts";
import { BLOCK_MS } from "./run-reader.ts";
import { DEFAULT_REDIS_PREFIX, decodeEntries, isTerminal, streamKey } from "./stream.ts";

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
  /**
   * Told once per outage when a Redis call fails or outlives its timeout (Redis down or stalled): until Redis
   * answers again, followers of other instances' runs read the store, reconnects take its word, and cancels are
   * recorded there.
   */
  onRedisDown?: (error: unknown) => void;
  /** Told when Redis answers again after an outage. */
  onRedisUp?: () => void;
  /** How long a Redis call may take before Redis is taken for down. Default 1000 ms; a blocking read gets its BLOCK on top. */
  commandTimeoutMs?: number;
  /** The most connections this instance opens for reading other instances' runs (one per run, shared by its followers). Default 32. */
  maxReadConnections?: number;
}

/** Idle read connections kept for the next run followed here; more are closed when given back. */
const IDLE_CONNECTIONS = 16;
const DEFAULT_COMMAND_TIMEOUT_MS = 1000;
const DEFAULT_MAX_READ_CONNECTIONS = 32;
/** TCP keepalive on every connection: one to a Redis host that vanished from the network is closed and opened again, not kept for ever. */
const KEEPALIVE_MS = 10_000;
/** How long close waits for runs' last events to reach Redis. */
const CLOSE_WAIT_MS = 2000;

/**
 * A RunHub for several instances: the local hub executes this instance's runs
 * and serves their followers here (the fast path); each run's events are also
 * published to a Redis stream, from which any other instance serves that
 * run's live tail and `Last-Event-ID` reconnects. Nothing is lost at the seam:
 * the stream's entry ids are the events' numbers. A cancel that reaches an
 * instance other than the run's reaches the run's through a Redis channel.
 * Every Redis call has a time limit: while Redis is down or stalled, other
 * instances' runs are followed from the store and cancels recorded there.
 *
 * @example
 * const local = createRunHub({ store });
 * const hub = await createRedisHub({ local, store, url: process.env.TETHER_REDIS_URL });
 */
export async function createRedisHub(options: RedisHubOptions): Promise<RunHub> {
  const { local, store } = options;
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  const commandTimeout = options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const redis = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 3,
    // Nothing waits on Redis for ever: a stalled server (SIGSTOP, swapping, a silent network) fails each call in time.
    commandTimeout,
    keepAlive: KEEPALIVE_MS,
    connectionName: "tether",
  });
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

  const health = watchRedisHealth({
    probe: () => redis.ping(),
    ...(options.onRedisDown ? { onDown: options.onRedisDown } : {}),
    ...(options.onRedisUp ? { onUp: options.onRedisUp } : {}),
  });
  const connections = createReadConnections(redis, {
    max: options.maxReadConnections ?? DEFAULT_MAX_READ_CONNECTIONS,
    idle: IDLE_CONNECTIONS,
    commandTimeoutMs: BLOCK_MS + commandTimeout,
  });
  const remote = createRemoteFollowers({ store, redis, connections, health, keyOf: (runId) => streamKey(prefix, runId) });
  const cancels = await listenForCancels({ redis, health, prefix });
  const publishers = new Set<Promise<void>>();
  /** Runs this instance executes whose events are still on their way to Redis. */
  const executing = new Set<string>();
  let storedCancels: StoredCancelWatcher | undefined;
  let serveCancel: (runId: string) => boolean = () => false;
  const stopPublishing = new AbortController();

  return {
    open(run) {
      const channel = local.open(run);
      const publishing = publishRun({
        redis,
        local,
        runId: run.runId,
        key: streamKey(prefix, run.runId),
        signal: stopPublishing.signal,
        onError: (error) => {
          health.failed(error);
          options.onPublishError?.(error, run.runId);
        },
      })
        .catch((error: unknown) => options.onPublishError?.(error, run.runId))
        .finally(() => {
          publishers.delete(publishing);
          executing.delete(run.runId);
        });
      publishers.add(publishing);
      executing.add(run.runId);
      return channel;
    },
    isLive: local.isLive,
    lastSeq: local.lastSeq,
    isEnding: local.isEnding,
    async tail(runId) {
      const here = await local.tail(runId);
      if (here) return here;
      // Redis down or stalled: the store's word is all there is (followers poll it meanwhile), at once, not after a timeout.
      if (health.down) return undefined;
      let last: [string, string[]] | undefined;
      try {
        [last] = (await redis.xrevrange(streamKey(prefix, runId), "+", "-", "COUNT", 1)) as [string, string[]][];
      } catch (error) {
        health.failed(error);
        return undefined;
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
      return remote.follow(runId, afterSeq, signal);
    },
    settleThread: local.settleThread,
    /**
     * Through Redis while it answers; else, or when the executing instance did not acknowledge in time, recorded in
     * the store, where that instance looks for cancels of its runs every second (stored-cancels.ts).
     */
    async requestCancel(runId) {
      if (await cancels.request(runId)) return true;
      return (await store.recordCancelRequest?.(runId)) ?? false;
    },
    serveCancels(cancel) {
      cancels.serve(cancel);
      serveCancel = cancel;
      const list = store.listCancelRequests?.bind(store);
      if (list && !storedCancels) storedCancels = watchStoredCancels({ list, cancel: (runId) => serveCancel(runId), busy: () => executing.size > 0 });
    },
    async close() {
      remote.close();
      await storedCancels?.stop();
      await cancels.close();
      await local.close();
      // Runs have ended (the app drains them first): their last events are on their way to Redis.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.all(publishers), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
      stopPublishing.abort();
      health.close();
      connections.close();
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
