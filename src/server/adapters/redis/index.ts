/**
 * The hub across instances: each run's events through a Redis stream, so any
 * instance serves any run's live tail and reconnects (`createTetherApp` loads
 * it when `redisUrl` or `TETHER_REDIS_URL` is set). Needs the optional peer
 * `ioredis`.
 *
 * @module
 */
export { createRedisHub, type RedisHubOptions } from "./hub.ts";
