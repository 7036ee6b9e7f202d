import type { HubLogger, RunHubFactory } from "../../hub/index.ts";
import { createRedisHub, type RedisHubOptions } from "./hub.ts";

/** The Redis hub's settings, for `redisHub`: the app gives it the local hub and the store. */
export type RedisOptions = Omit<RedisHubOptions, "local" | "store">;

/**
 * The hub across instances, for `createTetherApp({ hub })`: each run's events
 * through Redis at `url`. What goes wrong with Redis is told to the app's
 * logger, unless the options' callbacks take it. (With `redisUrl` or
 * `TETHER_REDIS_URL` set, `createTetherApp` makes this hub itself.)
 *
 * @example
 * const tether = await createTetherApp({ agents, authenticate, store: createPgRunStore({ connectionString }), hub: redisHub({ url: "redis://127.0.0.1:6379" }) });
 */
export function redisHub(options: RedisOptions): RunHubFactory {
  return ({ local, store, logger }) => createRedisHub({ local, store, ...loggedOutages(logger), ...options });
}

function loggedOutages(logger: HubLogger): Pick<RedisHubOptions, "onPublishError" | "onRedisDown" | "onRedisUp"> {
  return {
    onPublishError: (error, runId) => logger.error(`Could not publish events of run ${runId} to Redis; will retry.`, error),
    onRedisDown: (error) =>
      logger.error(
        "Redis did not answer (an error, or no answer in time); until it does, followers of other instances' runs read the store and cancels go through it.",
        error,
      ),
    onRedisUp: () => logger.warn("Redis answers again; followers of other instances' runs read its streams again."),
  };
}
