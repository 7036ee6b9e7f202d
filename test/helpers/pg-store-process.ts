/**
 * An instance that starts a run on a PostgreSQL store and then only lives, for
 * tests that kill it: prints "running <runId>" once the run is stored.
 * Environment: TETHER_TEST_DATABASE_URL, TETHER_TEST_SCHEMA, TETHER_TEST_THREAD.
 */
import { createPgRunStore } from "@tether-agent/tether/pg";

const threadId = process.env.TETHER_TEST_THREAD!;
const store = await createPgRunStore({
  connectionString: process.env.TETHER_TEST_DATABASE_URL!,
  schema: process.env.TETHER_TEST_SCHEMA!,
  instanceId: "doomed",
});
const runId = `${threadId}-run`;
await store.beginRun({
  thread: { threadId, agentId: "workdesk", ownerId: "kim" },
  run: { runId, userId: "kim", input: {}, log: [] },
  events: [],
  messages: [{ id: `${threadId}-m1`, role: "user", content: "open the work request list" }],
  resolvedToolCallIds: [],
});
console.log(`running ${runId}`);
setInterval(() => undefined, 60_000);
