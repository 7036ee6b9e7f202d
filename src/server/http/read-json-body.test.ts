import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { Hono } from "hono";
import { bodyLimit } from "./middleware/body-limit.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { TetherError } from "../../protocol/index.ts";
import { listen, type Listening } from "../adapters/node/index.ts";
import { errorHandler } from "./errors.ts";
import { silentLogger } from "./logger.ts";
import { readJsonBody } from "./read-json-body.ts";

/** Run bodies as a real client sends them to a server on Node: in pieces, in any encoding of their characters, over the limit. */
describe("reading a JSON body on Node", () => {
  let server: Listening;
  const logged: string[] = [];
  const read: string[] = [];
  beforeAll(async () => {
    const app = new Hono();
    app.onError(errorHandler({ ...silentLogger, error: (message) => logged.push(message) }));
    const onError = () => {
      throw new TetherError("body_too_large", "The request body is larger than 1024 bytes.");
    };
    // As the app does: its body limit in front.
    app.use("*", bodyLimit({ maxSize: 1024, onError }));
    app.post("/echo", async (c) => c.json(await readJsonBody(c, z.object({ text: z.string() }), "The body")));
    // Served by Node, the body comes from Node's request: the WHATWG Request's reader is never needed.
    app.post("/node-only", async (c) => {
      c.req.text = () => Promise.reject(new Error("read through the WHATWG Request"));
      read.push((await readJsonBody(c, z.object({ text: z.string() }), "The body")).text);
      return c.json({ ok: true });
    });
    server = await listen(app, { port: 0, host: "127.0.0.1" });
  });
  afterAll(() => server.close());

  /** POSTs `chunks` one write each; with `length`, a Content-Length, else chunked. */
  function post(chunks: Buffer[], length?: number): Promise<{ status: number; body: { text?: string; error?: { code: string } } }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        `${server.url}/echo`,
        { method: "POST", headers: { "content-type": "application/json", ...(length === undefined ? {} : { "content-length": String(length) }) } },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
        },
      );
      request.once("error", reject);
      for (const chunk of chunks) request.write(chunk);
      request.end();
    });
  }

  it("decodes UTF-8 split across packets, and a leading byte-order mark", async () => {
    const bytes = Buffer.from('\uFEFF{"text":"서울 ☕"}');
    const at = bytes.indexOf(Buffer.from("서")) + 1; // inside the first character's three bytes
    const answer = await post([bytes.subarray(0, at), bytes.subarray(at)], bytes.length);
    expect(answer).toEqual({ status: 200, body: { text: "서울 ☕" } });
  });

  it("answers invalid_json and invalid_input with their codes", async () => {
    const broken = Buffer.from('{"text":');
    expect((await post([broken], broken.length)).body.error?.code).toBe("invalid_json");
    const wrong = Buffer.from('{"text":1}');
    expect((await post([wrong], wrong.length)).body.error?.code).toBe("invalid_input");
  });

  it("refuses a body over the limit, declared or chunked", async () => {
    const big = Buffer.from(JSON.stringify({ text: "x".repeat(2000) }));
    expect(await post([big], big.length)).toMatchObject({ status: 413, body: { error: { code: "body_too_large" } } });
    expect(await post([big.subarray(0, 1000), big.subarray(1000)])).toMatchObject({ status: 413, body: { error: { code: "body_too_large" } } });
  });

  it("reads a chunked body under the limit", async () => {
    const small = Buffer.from('{"text":"chunked"}');
    expect(await post([small.subarray(0, 5), small.subarray(5)])).toEqual({ status: 200, body: { text: "chunked" } });
  });

  it("reads the body from Node's own request, never building the WHATWG one", async () => {
    const body = JSON.stringify({ text: "straight from Node" });
    const response = await fetch(`${server.url}/node-only`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(response.status).toBe(200);
    expect(read).toEqual(["straight from Node"]);
  });

  it("answers a body cut off mid-upload as a client's error, logging nothing", async () => {
    const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"text":"cut`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logged).toEqual([]);
  });

  it("reads a body that arrives in pieces after the headers (a slow network)", async () => {
    const body = Buffer.from(JSON.stringify({ text: "서울 ".repeat(100) }));
    const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
    let reply = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (reply += chunk));
    socket.write(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    for (let at = 0; at < body.length; at += 200) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      socket.write(body.subarray(at, at + 200));
    }
    await new Promise((resolve) => socket.once("close", resolve));
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply).toContain(JSON.stringify({ text: "서울 ".repeat(100) }));
  }, 5000);
});

/** The same reader and limit on a host that hands Hono a WHATWG Request (createAgentHandlers in Next.js, Deno, Bun): no Node request behind it. */
describe("reading a JSON body from a Fetch-API request", () => {
  const app = new Hono();
  app.onError(errorHandler(silentLogger));
  app.use(
    "*",
    bodyLimit({
      maxSize: 1024,
      onError: () => {
        throw new TetherError("body_too_large", "The request body is larger than 1024 bytes.");
      },
    }),
  );
  app.post("/echo", async (c) => c.json(await readJsonBody(c, z.object({ text: z.string() }), "The body")));
  const post = async (body: BodyInit) => {
    const response = await app.request("/echo", { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" } as RequestInit);
    return { status: response.status, body: (await response.json()) as { text?: string; error?: { code: string } } };
  };
  const streamed = (text: string) =>
    new ReadableStream({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        controller.enqueue(bytes.subarray(0, 600));
        controller.enqueue(bytes.subarray(600));
        controller.close();
      },
    });

  it("reads a body under the limit, with its byte-order mark dropped", async () => {
    expect(await post('\uFEFF{"text":"서울"}')).toEqual({ status: 200, body: { text: "서울" } });
  });

  it("refuses a body over the limit, declared or streamed", async () => {
    const big = JSON.stringify({ text: "x".repeat(2000) });
    expect(await post(big)).toMatchObject({ status: 413, body: { error: { code: "body_too_large" } } });
    expect(await post(streamed(big))).toMatchObject({ status: 413, body: { error: { code: "body_too_large" } } });
    expect(await post(streamed(JSON.stringify({ text: "y".repeat(700) })))).toEqual({ status: 200, body: { text: "y".repeat(700) } });
  });
});
