import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyEvents, type BaseEvent } from "@ag-ui/client";
import { parseSseFrames, readSseFrames } from "@tether-agent/tether/testing";
import { from, lastValueFrom, toArray, type Observable } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEndlessUpstream, type EndlessUpstream } from "../helpers/endless-upstream.ts";
import { freePort } from "../helpers/server-process.ts";
import { KIM_HEADERS as headers, UPSTREAM_MID_STREAM, framesUntilKilled, runBody, startUpstreamFront } from "../helpers/upstream-front.ts";

/**
 * Run leases with an upstream agent, on SQLite: the instance, a real process,
 * forwards a run to an upstream AG-UI agent that streams and never finishes,
 * and is killed with SIGKILL mid-stream. The upstream must see its request
 * end; started again on the same data, the instance ends the run
 * `instance_lost`; a client reconnecting with the last id it holds gets that
 * end; and nobody asks the upstream for the lost run again.
 * (On PostgreSQL and Redis, with another instance ending it: test/redis/upstream-instance-lost.test.ts.)
 */

const verified = (events: BaseEvent[]) => lastValueFrom((from(events) as Observable<BaseEvent>).pipe(verifyEvents(), toArray()));

let upstream: EndlessUpstream;
const dataDir = mkdtempSync(join(tmpdir(), "tether-upstream-crash-"));
beforeAll(async () => {
  upstream = await startEndlessUpstream();
});
afterAll(async () => {
  await upstream?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("an instance killed with SIGKILL mid-upstream-run, on SQLite, started again", () => {
  it("closes the upstream request, ends the run instance_lost for every reader, and never asks the upstream again", async () => {
    const env = { TETHER_DATA_DIR: dataDir, PORT: String(await freePort()), TETHER_TEST_UPSTREAM_URL: upstream.url };
    let front = await startUpstreamFront(env);
    const threadId = "killed-sqlite";
    const runId = `${threadId}-r1`;
    try {
      const asked = upstream.requests.length;
      const onFront = readSseFrames(await fetch(`${front.url}/api/agents/front/run`, { method: "POST", headers, body: runBody(threadId, runId, "tell me") }));
      // RUN_STARTED, TEXT_MESSAGE_START and words: the upstream is mid-stream.
      const first = await onFront.until(5);
      expect(first.map((frame) => frame.data.type).slice(0, 5)).toEqual(UPSTREAM_MID_STREAM);
      const request = await upstream.request(asked);
      expect(request.isClosed()).toBe(false);

      await front.stop("SIGKILL");
      // (a) The upstream sees its request end (the test's timeout bounds the wait).
      await request.closed;
      const held = await framesUntilKilled(onFront);
      expect(held.length).toBeGreaterThanOrEqual(5);

      front = await startUpstreamFront(env);
      const read = async (lastEventId?: string) =>
        parseSseFrames(
          await (
            await fetch(`${front.url}/api/threads/${threadId}/events`, { headers: { ...headers, ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) } })
          ).text(),
        );
      // (c) The client reconnects with the last id it holds and gets the run's end: with what it saw, one valid AG-UI run.
      const resumed = await read(held.at(-1)!.id);
      expect(resumed.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "instance_lost" });
      await verified([...held, ...resumed].map((frame) => frame.data as BaseEvent));
      // (b) The whole log ends so, and so does the run.
      const log = await read();
      expect(log[0]!.data.type).toBe("RUN_STARTED");
      expect(log.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "instance_lost" });
      const record = await (await fetch(`${front.url}/api/runs/${runId}/record`, { headers })).json();
      expect(record).toMatchObject({ status: "error", error: { code: "instance_lost" } });

      // The thread goes on; the lost run itself was never sent upstream again.
      const next = await readSseFrames(
        await fetch(`${front.url}/api/agents/front/run`, { method: "POST", headers, body: runBody(threadId, `${threadId}-r2`, "hello") }),
      ).all();
      expect(next.at(-1)!.data.type).toBe("RUN_FINISHED");
      expect(upstream.requests.filter((each) => each.body.threadId === threadId).map((each) => each.body.runId)).toEqual([runId, `${threadId}-r2`]);
    } finally {
      await front.stop();
    }
  }, 120_000);
});
