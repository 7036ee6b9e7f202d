/**
 * The demo server as its own process, for tests that kill it, lock its
 * database or start a second one beside it. Prints one line,
 * `listening <url>`, once it serves; exits 1 with the error when it cannot start.
 *
 * Environment: TETHER_DATA_DIR, PORT, TETHER_SECRET (default "test-secret"),
 * TETHER_TEST_CHUNK_DELAY_MS (pause between the playbook's stream parts, so
 * a test can act mid-run), TETHER_DATABASE_URL, TETHER_DATABASE_SCHEMA and
 * TETHER_REDIS_URL (threads and runs on PostgreSQL, live events through
 * Redis: one of several instances).
 */
import { silentLogger } from "@tether-agent/tether/server";
import { serveDemoProcess } from "./serve-demo-process.ts";

await serveDemoProcess({
  port: Number(process.env.PORT ?? 0),
  dataDir: process.env.TETHER_DATA_DIR!,
  secret: process.env.TETHER_SECRET || "test-secret",
  logger: silentLogger,
  env: {},
  playbook: { chunkDelayMs: Number(process.env.TETHER_TEST_CHUNK_DELAY_MS ?? 0) },
  ...(process.env.TETHER_DATABASE_URL ? { databaseUrl: process.env.TETHER_DATABASE_URL, databaseSchema: process.env.TETHER_DATABASE_SCHEMA || "tether" } : {}),
  redisUrl: process.env.TETHER_REDIS_URL ?? "",
});
