import { afterAll, describe, expect, it } from "vitest";
import { isTetherError } from "../../../protocol/index.ts";
import { reachablePostgres, serverSchemas } from "../../../../test/helpers/postgres.ts";
import { createPgRunStore } from "./run-store.ts";
import type { BeginRun } from "../../store/index.ts";

/**
 * An operator who names instances (`instanceId`: a pod's stable name, say):
 * an instance restarted under its old name ends the runs its earlier life
 * left running, as a fresh name's would be ended by the sweep; and two live
 * processes given one name are refused at start, not left waiting for ever.
 */

const server = await reachablePostgres();
const skipped = "skipped" in server ? server.skipped : undefined;
if (skipped) console.info(`The PostgreSQL store's instance names: skipped. ${skipped}`);

const begin = (threadId: string, runId: string): BeginRun => ({
  thread: { threadId, agentId: "workdesk", ownerId: "kim" },
  run: { runId, userId: "kim", input: {}, log: [] },
  events: [],
  messages: [],
  resolvedToolCallIds: [],
});

describe.skipIf(skipped)("the PostgreSQL store's instance names", () => {
  const url = "url" in server ? server.url : "";
  const schemas = serverSchemas(url);
  afterAll(() => schemas.dropAll());

  it("ends at start the runs an earlier life of the same instance name left running, and frees their threads", async () => {
    const schema = schemas.make("same_name");
    const earlier = await createPgRunStore({ connectionString: url, schema, instanceId: "web-1" });
    await earlier.beginRun(begin("t1", "r1"));
    await earlier.close(); // as a crash leaves it: the run still running, the instance's lock gone

    const restarted = await createPgRunStore({ connectionString: url, schema, instanceId: "web-1" });
    try {
      expect(await restarted.recoverInterruptedRuns()).toBe(1);
      expect(await restarted.getRun("r1")).toMatchObject({ status: "error", error: { code: "instance_lost" } });
      await restarted.beginRun(begin("t1", "r2"));
    } finally {
      await restarted.close();
    }
  });

  it("refuses to start, naming the instance, while a live process holds the same name", async () => {
    const schema = schemas.make("twin");
    const first = await createPgRunStore({ connectionString: url, schema, instanceId: "web-2" });
    try {
      const error = await createPgRunStore({ connectionString: url, schema, instanceId: "web-2" }).then(
        async (twin) => (await twin.close(), undefined),
        (thrown: unknown) => thrown,
      );
      if (!isTetherError(error)) throw new Error(`expected a TetherError, got ${String(error)}`);
      expect(error.code).toBe("config_invalid");
      expect(error.message).toContain("web-2");
    } finally {
      await first.close();
    }
  });
});
