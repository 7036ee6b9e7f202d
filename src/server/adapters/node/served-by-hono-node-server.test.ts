import type { AddressInfo } from "node:net";
import { serve as serveWithMajor1 } from "@hono/node-server";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createScriptedModel, parseSseFrames } from "@tether-agent/tether/testing";
import { serve as serveWithMajor2 } from "hono-node-server-2";
import { afterEach, describe, expect, it } from "vitest";
import { listen } from "./index.ts";

/**
 * The run endpoint and a reconnect, over real HTTP, served the ways the guide
 * says: `serve()` of `@hono/node-server` 1 and of 2 (the README's install
 * line takes the registry's latest), and Tether's own `listen`. Each major
 * puts its own `Request` and `Response` in the globals when it starts
 * serving; the servers here start one at a time, so each serves with its own.
 */
type Serve = typeof serveWithMajor1;
type Served = { url: string; close(): Promise<void> };

function servedBy(serve: Serve) {
  return (app: TetherApp<{ id: string }>["app"]) =>
    new Promise<Served>((resolve) => {
      const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
        resolve({
          url: `http://127.0.0.1:${info.port}`,
          close: () => new Promise<void>((done) => server.close(() => done())),
        }),
      );
    });
}

const SERVERS: Array<[string, (app: TetherApp<{ id: string }>["app"]) => Promise<Served>]> = [
  ["serve() of @hono/node-server 1", servedBy(serveWithMajor1)],
  // Typed as 1's: the two majors' `serve` take the same options and hand the same address to the callback.
  ["serve() of @hono/node-server 2", servedBy(serveWithMajor2 as unknown as Serve)],
  ["Tether's listen", (app) => listen(app, { port: 0, host: "127.0.0.1" })],
];

async function scriptedTether() {
  return createTetherApp<{ id: string }>({
    agents: [defineAgent({ id: "desk", model: createScriptedModel([{ text: "Hello there, how can I help?" }]) })],
    authenticate: (request) => (request.headers.get("x-user") ? { id: request.headers.get("x-user")! } : undefined),
    store: createMemoryRunStore(),
    logger: silentLogger,
  });
}

describe.each(SERVERS)("the run endpoint, served by %s", (_, serve) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("streams the run from RUN_STARTED to RUN_FINISHED, and replays the rest after a Last-Event-ID", async () => {
    const tether = await scriptedTether();
    served = await serve(tether.app);
    const response = await fetch(`${served.url}/api/agents/desk/run`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-user": "kim" },
      body: JSON.stringify({ threadId: "t1", runId: "r1", messages: [{ id: "m1", role: "user", content: "hi" }], tools: [], context: [] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.has("x-hono-already-sent")).toBe(false);
    const frames = parseSseFrames(await response.text());
    const types = frames.map((frame) => frame.data.type);
    expect(types[0]).toBe("RUN_STARTED");
    expect(types).toContain("TEXT_MESSAGE_CONTENT");
    expect(types.at(-1)).toBe("RUN_FINISHED");
    expect(frames.map((frame) => frame.id)).toEqual(frames.map((_, index) => `r1:${index + 1}`));

    // The reconnect takes the same path out: the thread's events route streams through the same writer.
    const replay = await fetch(`${served.url}/api/threads/t1/events`, { headers: { "x-user": "kim", "Last-Event-ID": frames[1]!.id! } });
    expect(replay.status).toBe(200);
    expect(parseSseFrames(await replay.text()).map((frame) => frame.id)).toEqual(frames.slice(2).map((frame) => frame.id));
  });
});
