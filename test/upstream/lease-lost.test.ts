import { HttpAgent } from "@ag-ui/client";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { createCountingIds, readSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startEndlessUpstream, type EndlessRequest, type EndlessUpstream } from "../helpers/endless-upstream.ts";
import { losableStore } from "../helpers/losable-store.ts";

/**
 * An instance that loses its hold on the shared store while it lives (its
 * liveness lock's connection broke: another instance may end its runs at any
 * moment) stops its runs itself, with RUN_ERROR `instance_lost`. A run in
 * front of an upstream agent is stopped the same way, and its upstream
 * request with it: an upstream that never finishes must see the request end,
 * whether Tether reaches it by URL or through an `HttpAgent`.
 */

/** Generous: the request ends as soon as the run's signal aborts; this only turns a hang into a failure. */
const CLOSE_BOUND_MS = 10_000;
const headers = { "Content-Type": "application/json", "x-user": "kim" };

let upstream: EndlessUpstream;
let shared: ReturnType<typeof losableStore>;
let tether: TetherApp;

beforeAll(async () => {
  upstream = await startEndlessUpstream();
  shared = losableStore();
  tether = await createTetherApp({
    agents: [
      defineAgent({ id: "by-url", upstream: { url: upstream.url }, browserTools: [] }),
      defineAgent({ id: "by-agent", upstream: new HttpAgent({ url: upstream.url }), browserTools: [] }),
    ],
    authenticate: (request) => (request.headers.get("x-user") === "kim" ? { id: "kim" } : undefined),
    store: shared.store,
    logger: silentLogger,
    ids: createCountingIds(),
  });
});

afterAll(async () => {
  shared?.up();
  await tether?.close();
  await upstream?.close();
});

const post = (agentId: string, threadId: string, runId: string, text: string) =>
  tether.app.request(`/api/agents/${agentId}/run`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      threadId,
      runId,
      messages: [{ id: `${runId}-u1`, role: "user", content: text }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    }),
  });

const closedWithin = (request: EndlessRequest) =>
  Promise.race([request.closed.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), CLOSE_BOUND_MS).unref())]);

describe.each(["by-url", "by-agent"])("an upstream run (%s) on an instance that loses its hold on the shared store", (agentId) => {
  it("ends with RUN_ERROR instance_lost, closes the upstream request, stores the end once the store answers, and the thread goes on", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const threadId = `lost-${agentId}`;
    const runId = `${threadId}-r1`;
    try {
      const asked = upstream.requests.length;
      const stream = readSseFrames(await post(agentId, threadId, runId, "tell me"));
      // RUN_STARTED, TEXT_MESSAGE_START and words: the upstream is mid-stream.
      await stream.until(5);
      const request = await upstream.request(asked);
      expect(request.body.runId).toBe(runId);
      expect(request.isClosed()).toBe(false);

      shared.lose({ down: true });
      const seen = await stream.all();
      expect(seen.at(-1)!.data).toMatchObject({ type: "RUN_ERROR", code: "instance_lost" });
      expect(await closedWithin(request), "the upstream saw its request end").toBe(true);

      shared.up();
      await vi.waitFor(async () => expect(await shared.store.getRun(runId)).toMatchObject({ status: "error", error: { code: "instance_lost" } }), {
        timeout: 15_000,
        interval: 50,
      });
      // The instance holds the store again: the next turn reaches the upstream once more and finishes.
      const next = await readSseFrames(await post(agentId, threadId, `${threadId}-r2`, "hello")).all();
      expect(next.at(-1)!.data.type).toBe("RUN_FINISHED");
      expect(upstream.requests.filter((each) => each.body.threadId === threadId)).toHaveLength(2);
      // Aborting the request mid-body leaves nothing behind that would stop a Node server.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
      shared.up();
    }
  }, 60_000);
});
