import { afterAll, describe, expect, it } from "vitest";
import { reachablePostgres, serverSchemas } from "../../../../test/helpers/postgres.ts";
import { createPgRunStore } from "./run-store.ts";
import type { BeginRun, RunStore } from "../../store/index.ts";

/**
 * Cancels through the database, for when Redis cannot carry them: recorded
 * by any instance for a running run, found by the instance that executes it.
 */

const begin = (threadId: string, runId: string): BeginRun => ({
  thread: { threadId, agentId: "workdesk", ownerId: "kim" },
  run: { runId, userId: "kim", input: {}, log: [] },
  events: [],
  messages: [],
  resolvedToolCallIds: [],
});

const server = await reachablePostgres();
if ("skipped" in server) console.info(`Cancel requests on PostgreSQL: skipped. ${server.skipped}`);
const schemas = "url" in server ? serverSchemas(server.url) : undefined;
afterAll(() => schemas?.dropAll());

describe.skipIf("skipped" in server)("PostgreSQL cancel requests across instances", () => {
  const opened: RunStore[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
  });

  it("records a cancel of a running run for the instance that executes it, which alone finds it, and refuses one of an ended run", async () => {
    const schema = schemas!.make("cancels");
    const open = async () => {
      const store = await createPgRunStore({ connectionString: (server as { url: string }).url, schema });
      opened.push(store);
      return store;
    };
    const [a, b] = [await open(), await open()];
    await a.beginRun(begin("thread_1", "run_1"));
    await a.beginRun(begin("thread_2", "run_2"));
    expect(await a.listCancelRequests!()).toEqual([]);

    expect(await b.recordCancelRequest!("run_1")).toBe(true);
    // Asked twice (a retried click): still one request.
    expect(await b.recordCancelRequest!("run_1")).toBe(true);

    expect(await a.listCancelRequests!()).toEqual(["run_1"]);
    expect(await b.listCancelRequests!()).toEqual([]);
    await a.finishRun({ runId: "run_1", status: "cancelled", outcome: { type: "success" } });
    expect(await a.listCancelRequests!()).toEqual([]);
    expect(await b.recordCancelRequest!("run_1")).toBe(false);
    expect(await b.recordCancelRequest!("no_such_run")).toBe(false);
  });
});
