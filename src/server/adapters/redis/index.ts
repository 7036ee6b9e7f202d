/**
 * The hub across instances: each run's events through a Redis stream, so any
 * instance serves any run's live tail and reconnects (`createTetherApp` loads
 * it when `redisUrl` or `TETHER_REDIS_URL` is set; `redisHub` gives it to
 * `createTetherApp({ hub })` with settings of your own). Needs the optional peer
 * `ioredis`.
 *
 * @module
 */
export { redisHub, type RedisOptions } from "./redis-hub.ts";
export { createRedisHub, type RedisHubOptions } from "./hub.ts";
