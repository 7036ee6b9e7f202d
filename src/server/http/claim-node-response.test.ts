import { EventType, type BaseEvent } from "@ag-ui/core";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
import { getRequestListener as requestListenerOfMajor2 } from "hono-node-server-2";
import { afterEach, describe, expect, it } from "vitest";
import { eventStreamResponse, type RunEvents } from "./event-stream.ts";
import type { Logger } from "./logger.ts";
import { rawGet as get } from "../../../test/helpers/raw-get.ts";

const text = (seq: number, delta: string) => ({ seq, event: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta } as BaseEvent });

function streamingApp(logger: Logger, middleware?: Parameters<Hono["use"]>[1]) {
  const app = new Hono();
  if (middleware) app.use("*", middleware);
  app.get("/events", (c) =>
    eventStreamResponse(
      c,
      (async function* (): AsyncIterable<RunEvents> {
        yield { runId: "r1", events: [text(1, "Hel")] };
        await new Promise((resolve) => setTimeout(resolve, 60));
        yield { runId: "r1", events: [text(2, "lo")] };
      })(),
      { logger, onClose: () => {} },
    ),
  );
  return app;
}

function recordingLogger() {
  const errors: string[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (message) => errors.push(message) };
  return { logger, errors };
}

describe("claimNodeResponse, under eventStreamResponse", () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  async function serve(listener: RequestListener): Promise<string> {
    server = createServer(listener);
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("drops @hono/node-server 2's answer with the mark when it comes while the stream is going (a middleware still busy after the handler)", async () => {
    const { logger, errors } = recordingLogger();
    const app = streamingApp(logger, async (_c, next) => {
      await next();
      await new Promise((resolve) => setTimeout(resolve, 30));
    });
    const listener = requestListenerOfMajor2(app.fetch);
    const outcome = await get(`${await serve((incoming, outgoing) => void listener(incoming, outgoing))}/events`);
    expect(outcome).toMatchObject({ status: 200, ended: true });
    expect(outcome.body.match(/^id: .*$/gm)).toEqual(["id: r1:1", "id: r1:2"]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([]);
  });

  it("cuts the stream and logs the cause when an adapter that does not know the mark answers over it: never an empty 200", async () => {
    const { logger, errors } = recordingLogger();
    const app = streamingApp(logger);
    // An adapter that hands the Node objects to the app as @hono/node-server does, then writes the app's answer itself.
    const url = await serve((incoming, outgoing) => {
      void (async () => {
        const response = await app.fetch(new Request(`http://127.0.0.1${incoming.url}`), { incoming, outgoing });
        outgoing.writeHead(response.status, { "content-type": "text/plain" });
        outgoing.end(await response.text());
      })();
    });
    const outcome = await get(`${url}/events`);
    expect(outcome.ended).toBe(false);
    expect(outcome.body).toBe("");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("writeHead()");
    expect(errors[0]).toContain("x-hono-already-sent");
    expect(errors[0]).toContain("@hono/node-server 1 or 2");
  });
});
