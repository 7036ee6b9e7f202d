import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RunAgentInput } from "@ag-ui/core";
import { Redis } from "ioredis";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import type { RunStore } from "@tether-agent/tether/store";
import { createPgRunStore } from "@tether-agent/tether/pg";
import { createScriptedModel, readSseFrames } from "@tether-agent/tether/testing";
import { afterAll, describe, expect, it } from "vitest";
import { reachablePostgres, serverSchemas } from "../helpers/postgres.ts";
import { reachableRedis } from "../helpers/redis.ts";

/**
 * Run leases end to end: instance A, a real process, executes a run on
 * PostgreSQL and Redis; a client follows it through instance B; A is killed
 * with SIGKILL. The client through B must get RUN_ERROR `instance_lost`
 * within the bound docs/operations.md states, and the thread must go on through B.
 */

/** The bound docs/operations.md promises: a sweep every 3 s, plus the 2 s a follower waits before asking the store, with room for a loaded machine. */
const BOUND_MS = 15_000;
const SCRIPT = fileURLToPath(new URL("../helpers/held-run-process.ts", import.meta.url));

const redis = await reachableRedis();
const postgres = await reachablePostgres();
const skipped = "skipped" in redis ? redis.skipped : "skipped" in postgres ? postgres.skipped : undefined;
if (skipped) console.info(`An instance killed mid-run, on PostgreSQL and Redis: skipped. ${skipped}`);

/** Starts instance A in a process of its own; resolves with its URL once it serves. */
function startInstanceA(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ["--conditions=tether-source", "--import", "tsx", SCRIPT], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /listening (http:\/\/\S+)/.exec(output);
      if (match) resolve({ url: match[1]!, child, output: () => output });
    });
    child.once("exit", (code) => reject(new Error(`Instance A exited with ${code} before it served:\n${output}`)));
  });
}

describe.skipIf(skipped)("an instance killed with SIGKILL mid-run, on PostgreSQL and Redis", () => {
  const schemas = "url" in postgres ? serverSchemas(postgres.url) : undefined;
  const schema = schemas?.make("lease") ?? "";
  let b: { tether: TetherApp; store: RunStore } | undefined;
  let a: ChildProcess | undefined;
  const runIds: string[] = [];

  afterAll(async () => {
    if (a && a.exitCode === null && a.signalCode === null) a.kill("SIGKILL");
    await b?.tether.close();
    await schemas?.dropAll();
    if ("url" in redis && runIds.length > 0) {
      const client = new Redis(redis.url);
      await client.del(...runIds.map((runId) => `tether:run:${runId}`)).finally(() => client.disconnect());
    }
  });

  it("ends the run for a client attached through B with RUN_ERROR instance_lost within the bound, and the thread goes on through B", async () => {
    const databaseUrl = (postgres as { url: string }).url;
    const redisUrl = (redis as { url: string }).url;
    // B first: its store migrates the schema before A starts on it.
    const store = await createPgRunStore({ connectionString: databaseUrl, schema });
    const tether = await createTetherApp({
      agents: [defineAgent({ id: "test", model: createScriptedModel([{ text: "Still here." }]), tools: [], browserTools: [] })],
      authenticate: (request) => (request.headers.get("x-user") === "kim" ? { id: "kim" } : undefined),
      store,
      redisUrl,
      logger: silentLogger,
    });
    b = { tether, store };
    const instanceA = await startInstanceA({ TETHER_TEST_DATABASE_URL: databaseUrl, TETHER_TEST_SCHEMA: schema, TETHER_TEST_REDIS_URL: redisUrl });
    a = instanceA.child;

    const threadId = `t-lost-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    const next = `${threadId}-r2`;
    runIds.push(runId, next);
    const input = (id: string): RunAgentInput => ({
      threadId,
      runId: id,
      messages: [{ id: `${id}-u1`, role: "user", content: "tell me" }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    });
    const headers = { "Content-Type": "application/json", "x-user": "kim" };

    const onA = readSseFrames(await fetch(`${instanceA.url}/api/agents/test/run`, { method: "POST", headers, body: JSON.stringify(input(runId)) }));
    await onA.until(5);
    const throughB = readSseFrames(await tether.app.request(`/api/threads/${threadId}/events`, { headers }));
    await throughB.until(5);
    expect((await store.getRun(runId))?.status).toBe("running");

    const exited = new Promise((resolve) => a!.once("exit", resolve));
    const killedAt = performance.now();
    a.kill("SIGKILL");
    await exited;
    const seen = await throughB.all();
    const elapsed = performance.now() - killedAt;
    console.info(`RUN_ERROR instance_lost reached the client through B ${Math.round(elapsed)} ms after A was killed (bound ${BOUND_MS} ms).`);

    expect(seen.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "instance_lost" });
    expect(elapsed).toBeLessThanOrEqual(BOUND_MS);
    expect(await store.getRun(runId)).toMatchObject({ status: "error", error: { code: "instance_lost" } });

    // That client reconnects through B holding the end: it gets the end again. (A's stream in Redis stops before it.)
    const end = seen.at(-1)!.id!;
    const again = await readSseFrames(await tether.app.request(`/api/threads/${threadId}/events`, { headers: { ...headers, "Last-Event-ID": end } })).all();
    expect(again.map((frame) => frame.id)).toEqual([end]);

    const after = await readSseFrames(await tether.app.request("/api/agents/test/run", { method: "POST", headers, body: JSON.stringify(input(next)) })).all();
    expect(after[0]!.data.type).toBe("RUN_STARTED");
    expect(after.at(-1)!.data.type).toBe("RUN_FINISHED");
    expect((await store.getRun(next))?.status).toBe("finished");
  }, 90_000);
});
