import { verifyEvents, type BaseEvent } from "@ag-ui/client";
import { Redis } from "ioredis";
import { createPgRunStore } from "@tether-agent/tether/pg";
import { createTetherApp, defineAgent, silentLogger } from "@tether-agent/tether/server";
import { parseSseFrames, readSseFrames } from "@tether-agent/tether/testing";
import { from, lastValueFrom, toArray, type Observable } from "rxjs";
import { afterAll, describe, expect, it } from "vitest";
import { startEndlessUpstream } from "../helpers/endless-upstream.ts";
import { sharedServices } from "../helpers/instances.ts";
import { KIM_HEADERS as headers, UPSTREAM_MID_STREAM, framesUntilKilled, runBody, startUpstreamFront } from "../helpers/upstream-front.ts";

/**
 * Run leases with an upstream agent, on PostgreSQL and Redis: instance A, a
 * real process, forwards a run to an upstream AG-UI agent that streams and
 * never finishes; a client follows it through instance B; A is killed with
 * SIGKILL. The upstream must see its request end, B's lease sweep must end
 * the run `instance_lost` for its client and in the store, A's client
 * reconnecting through B must get that end, and the thread goes on through B
 * without the lost run being sent upstream again.
 */

const { skipped, schemas, databaseUrl, redisUrl } = await sharedServices("An instance killed mid-upstream-run, on PostgreSQL and Redis");
const verified = (events: BaseEvent[]) => lastValueFrom((from(events) as Observable<BaseEvent>).pipe(verifyEvents(), toArray()));

describe.skipIf(skipped)("an instance killed with SIGKILL mid-upstream-run, on PostgreSQL and Redis", () => {
  const schema = schemas?.make("upstream_lease") ?? "";
  const runIds: string[] = [];
  afterAll(async () => {
    await schemas?.dropAll();
    if (runIds.length > 0) {
      const client = new Redis(redisUrl);
      await client.del(...runIds.map((runId) => `tether:run:${runId}`)).finally(() => client.disconnect());
    }
  });

  it("closes the upstream request, and instance B ends the run instance_lost for its client, a reconnect and the store", async () => {
    const upstream = await startEndlessUpstream();
    // B first: its store migrates the schema before A starts on it.
    const store = await createPgRunStore({ connectionString: databaseUrl, schema });
    const b = await createTetherApp({
      agents: [defineAgent({ id: "front", upstream: { url: upstream.url }, browserTools: [] })],
      authenticate: (request) => (request.headers.get("x-user") === "kim" ? { id: "kim" } : undefined),
      store,
      redisUrl,
      secret: "test-secret",
      logger: silentLogger,
    });
    const a = await startUpstreamFront({
      TETHER_TEST_DATABASE_URL: databaseUrl,
      TETHER_TEST_SCHEMA: schema,
      TETHER_TEST_REDIS_URL: redisUrl,
      TETHER_TEST_UPSTREAM_URL: upstream.url,
    });
    const threadId = `killed-pg-${process.pid}-${Date.now()}`;
    const runId = `${threadId}-r1`;
    runIds.push(runId, `${threadId}-r2`);
    try {
      const onA = readSseFrames(await fetch(`${a.url}/api/agents/front/run`, { method: "POST", headers, body: runBody(threadId, runId, "tell me") }));
      const first = await onA.until(5);
      expect(first.map((frame) => frame.data.type).slice(0, 5)).toEqual(UPSTREAM_MID_STREAM);
      const request = await upstream.request(0);
      const throughB = readSseFrames(await b.app.request(`/api/threads/${threadId}/events`, { headers }));
      await throughB.until(5);
      expect((await store.getRun(runId))?.status).toBe("running");
      expect(request.isClosed()).toBe(false);

      await a.stop("SIGKILL");
      // (a) The upstream sees its request end (the test's timeout bounds the wait).
      await request.closed;
      // (b) B's lease sweep ends the run for the client attached through it, and in the store.
      const seen = await throughB.all();
      expect(seen.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "instance_lost" });
      expect(await store.getRun(runId)).toMatchObject({ status: "error", error: { code: "instance_lost" } });
      // (c) A's client reconnects through B with the last id it holds and gets that end.
      const held = await framesUntilKilled(onA);
      const resumed = parseSseFrames(
        await (await b.app.request(`/api/threads/${threadId}/events`, { headers: { ...headers, "Last-Event-ID": held.at(-1)!.id! } })).text(),
      );
      expect(resumed.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "instance_lost" });
      await verified([...held, ...resumed].map((frame) => frame.data as BaseEvent));

      // The thread goes on through B; the lost run was never sent upstream again.
      const next = await readSseFrames(
        await b.app.request("/api/agents/front/run", { method: "POST", headers, body: runBody(threadId, `${threadId}-r2`, "hello") }),
      ).all();
      expect(next.at(-1)!.data.type).toBe("RUN_FINISHED");
      expect(upstream.requests.map((each) => each.body.runId)).toEqual([runId, `${threadId}-r2`]);
    } finally {
      await a.stop("SIGKILL");
      await b.close();
      await upstream.close();
    }
  }, 120_000);
});
