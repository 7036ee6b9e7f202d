import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { EventType, type BaseEvent } from "@ag-ui/core";
import { RESPONSE_ALREADY_SENT as NODE_SERVER_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono } from "hono";
import { getRequestListener as requestListenerOfMajor2 } from "hono-node-server-2";
import { afterEach, describe, expect, it } from "vitest";
import { RESPONSE_ALREADY_SENT } from "./response-already-sent.ts";
import { listen, type Listening } from "../adapters/node/index.ts";
import { eventStreamResponse, type RunEvents } from "./event-stream.ts";
import { silentLogger } from "./logger.ts";
import { rawGet } from "../../../test/helpers/raw-get.ts";

const text = (seq: number, delta: string) => ({ seq, event: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta } as BaseEvent });

/** One route streaming `source`, behind a middleware that sets headers before the handler and after it; served by Node or by `app.request`. */
function streamingApp(source: () => AsyncIterable<RunEvents>, closes: boolean[]) {
  const app = new Hono();
  app.use("*", async (c, next) => {
    c.header("X-Before", "kept");
    c.header("Set-Cookie", "a=1", { append: true });
    c.header("Set-Cookie", "b=2", { append: true });
    await next();
    // As Hono's secureHeaders does: after the handler, into the response Hono holds.
    c.res.headers.set("X-After", "kept too");
  });
  app.get("/events", (c) =>
    eventStreamResponse(c, source(), {
      logger: silentLogger,
      onClose: (clientGone) => closes.push(clientGone),
      headers: { "x-tether-repeat-of": "r1" },
    }),
  );
  return app;
}

function get(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => httpRequest(url, resolve).once("error", reject).end());
}

/** Served by `@hono/node-server` 2's request listener (`listen` takes the installed major, 1 here). */
async function listenWithMajor2(app: Hono): Promise<Listening> {
  const listener = requestListenerOfMajor2(app.fetch);
  const node = createServer((incoming, outgoing) => void listener(incoming, outgoing));
  await new Promise<void>((resolve) => node.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(node.address() as AddressInfo).port}`,
    server: node,
    close: () => new Promise<void>((done) => node.close(() => done())),
  };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe("eventStreamResponse", () => {
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  for (const servedBy of ["Node", "Node with @hono/node-server 2", "app.request"] as const) {
    it(`streams SSE frames with their ids and the headers middleware set around the handler, served by ${servedBy}`, async () => {
      const closes: boolean[] = [];
      const app = streamingApp(async function* () {
        yield { runId: "r1", events: [text(1, "Hel"), text(2, "lo")] };
        yield { runId: "r1", events: [text(3, "!")] };
      }, closes);
      let status: number, headers: Headers, body: string;
      if (servedBy !== "app.request") {
        server = servedBy === "Node" ? await listen(app, { port: 0, host: "127.0.0.1" }) : await listenWithMajor2(app);
        const response = await fetch(`${server.url}/events`);
        [status, headers, body] = [response.status, response.headers, await response.text()];
      } else {
        const response = await app.request("/events");
        [status, headers, body] = [response.status, response.headers, await response.text()];
      }
      expect(status).toBe(200);
      expect(headers.get("content-type")).toBe("text/event-stream");
      expect(headers.get("x-accel-buffering")).toBe("no");
      expect(headers.get("x-before")).toBe("kept");
      expect(headers.get("x-after")).toBe("kept too");
      expect(headers.has("x-hono-already-sent")).toBe(false);
      expect([...RESPONSE_ALREADY_SENT.headers.keys()]).toEqual(["x-hono-already-sent"]); // shared by every request: never written into
      // The same mark as the Node server package's own, which the core does not import (an optional peer).
      expect([...RESPONSE_ALREADY_SENT.headers]).toEqual([...NODE_SERVER_ALREADY_SENT.headers]);
      expect(headers.get("x-tether-repeat-of")).toBe("r1");
      expect(headers.getSetCookie()).toEqual(["a=1", "b=2"]);
      expect(body.match(/^id: .*$/gm)).toEqual(["id: r1:1", "id: r1:2", "id: r1:3"]);
      expect(body).toContain('"delta":"lo"');
      await until(() => closes.length > 0);
      expect(closes).toEqual([false]);
    });
  }

  it("writes text beyond ASCII as UTF-8, batch by batch, served by Node", async () => {
    const words = ["π ≈ 3.14", "한국어 ", "😀 \u2028 end"];
    server = await listen(
      streamingApp(async function* () {
        yield { runId: "r1", events: [text(1, words[0]!), text(2, words[1]!)] };
        yield { runId: "r1", events: [text(3, words[2]!)] };
      }, []),
      { port: 0, host: "127.0.0.1" },
    );
    const body = Buffer.from(await (await fetch(`${server.url}/events`)).arrayBuffer()).toString("utf8");
    // Split on "\n" alone: U+2028 ends a line for a RegExp, not for SSE.
    const lines = body.split("\n").filter((line) => line.startsWith("data: "));
    const deltas = lines.map((line) => (JSON.parse(line.slice(6)) as { delta: string }).delta);
    expect(deltas).toEqual(words);
  });

  it("sends the headers at once when the first batch is not at hand, so the client is not left waiting", async () => {
    const closes: boolean[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server = await listen(
      streamingApp(async function* () {
        await held;
        yield { runId: "r1", events: [text(1, "late")] };
      }, closes),
      { port: 0, host: "127.0.0.1" },
    );
    const response = await get(`${server.url}/events`);
    expect(response.statusCode).toBe(200);
    release();
    let body = "";
    for await (const chunk of response) body += chunk;
    expect(body).toContain("id: r1:1");
  });

  for (const [when, first] of [
    ["with its first batch", true],
    ["after a first batch had gone out", false],
  ] as const) {
    it(`sends what was written just before the source failed, ${when}, then cuts the stream`, async () => {
      const closes: boolean[] = [];
      server = await listen(
        streamingApp(async function* () {
          if (!first) {
            yield { runId: "r1", events: [text(1, "early")] };
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          yield { runId: "r1", events: [text(2, "before the failure")] };
          // Within the same tick: what was just written is still held by Node's cork.
          await Promise.resolve();
          throw new Error("The store failed.");
        }, closes),
        { port: 0, host: "127.0.0.1" },
      );
      const outcome = await rawGet(`${server!.url}/events`);
      expect(outcome.status).toBe(200);
      expect(outcome.body).toContain("id: r1:2");
      expect(outcome.ended).toBe(false);
      expect(closes).toEqual([false]);
    });
  }

  it("stops following when the client goes away, and says the client went", async () => {
    const closes: boolean[] = [];
    server = await listen(
      streamingApp(async function* () {
        yield { runId: "r1", events: [text(1, "first")] };
        await new Promise(() => {}); // a run that goes on and on
      }, closes),
      { port: 0, host: "127.0.0.1" },
    );
    const response = await get(`${server.url}/events`);
    await new Promise((resolve) => response.once("data", resolve));
    response.destroy();
    await until(() => closes.length > 0);
    expect(closes).toEqual([true]);
  });

  it("says the client went when it went before the handler answered (a run starting slowly), and does not follow", async () => {
    const closes: boolean[] = [];
    let pulled = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const app = new Hono();
    app.use("*", async (_c, next) => {
      await held;
      await next();
    });
    app.route(
      "/",
      streamingApp(async function* () {
        pulled++;
        yield { runId: "r1", events: [text(1, "first")] };
        await new Promise(() => {});
      }, closes),
    );
    server = await listen(app, { port: 0, host: "127.0.0.1" });
    const request = httpRequest(`${server.url}/events`);
    request.once("error", () => {});
    request.end();
    const incoming = await new Promise<IncomingMessage>((resolve) => server!.server.once("request", resolve));
    request.destroy();
    await new Promise((resolve) => incoming.socket.once("close", resolve));
    release();
    await until(() => closes.length > 0);
    expect(closes).toEqual([true]);
    expect(pulled).toBe(0);
  });

  it("pulls the source only as fast as a slow client reads", async () => {
    let pulled = 0;
    const batch = "x".repeat(64 * 1024);
    server = await listen(
      streamingApp(async function* () {
        for (;;) {
          pulled++;
          yield { runId: "r1", events: [text(pulled, batch)] };
        }
      }, []),
      { port: 0, host: "127.0.0.1" },
    );
    const response = await get(`${server.url}/events`);
    response.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Unbounded, this would be thousands of batches (hundreds of megabytes) by now; the socket's buffers hold a few.
    expect(pulled).toBeLessThan(200);
    response.destroy();
  });
});
