/**
 * A Tether instance whose agent `front` is an upstream AG-UI agent, as a
 * process of its own, for tests that kill it mid-upstream-run. Prints
 * `listening <url>` once it serves. User "kim" signs in with `x-user: kim`.
 *
 * Environment: TETHER_TEST_UPSTREAM_URL (the upstream agent), PORT; then
 * either TETHER_DATA_DIR (SQLite: one process) or TETHER_TEST_DATABASE_URL,
 * TETHER_TEST_SCHEMA and TETHER_TEST_REDIS_URL (one of several instances).
 */
import { createTetherApp, defineAgent, silentLogger } from "@tether-agent/tether/server";
import { listen } from "@tether-agent/tether/node";

const shared = process.env.TETHER_TEST_DATABASE_URL
  ? { databaseUrl: process.env.TETHER_TEST_DATABASE_URL, databaseSchema: process.env.TETHER_TEST_SCHEMA!, redisUrl: process.env.TETHER_TEST_REDIS_URL! }
  : { dataDir: process.env.TETHER_DATA_DIR! };
const tether = await createTetherApp({
  agents: [defineAgent({ id: "front", upstream: { url: process.env.TETHER_TEST_UPSTREAM_URL! }, browserTools: [] })],
  authenticate: (request) => (request.headers.get("x-user") === "kim" ? { id: "kim" } : undefined),
  ...shared,
  secret: "test-secret",
  logger: silentLogger,
});
const server = await listen(tether.app, { port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
console.log(`listening ${server.url}`);
