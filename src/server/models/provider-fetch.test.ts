import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { providerFetch } from "./provider-fetch.ts";

/** A model server's behaviours, by path. */
let server: Server;
let origin: string;
const seen: Array<{ method?: string; headers: Record<string, unknown>; body: string }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk));
    request.on("end", () => {
      seen.push({ method: request.method, headers: request.headers, body });
      if (request.url === "/stream") {
        response.writeHead(200, { "Content-Type": "text/event-stream", "Set-Cookie": ["a=1", "b=2"] });
        response.write("data: one\n\n");
        setTimeout(() => response.end("data: two\n\n"), 5);
      } else if (request.url === "/hang") {
        response.writeHead(200, { "Content-Type": "text/event-stream" });
        response.write("data: first\n\n"); // and never ends
      } else if (request.url === "/drop") {
        response.writeHead(200, { "Content-Type": "text/event-stream" });
        response.write("data: first\n\n");
        setTimeout(() => response.socket?.destroy(), 5);
      } else if (request.url === "/empty") {
        response.writeHead(204).end();
      } else {
        response.writeHead(429, { "Content-Type": "application/json" }).end('{"error":{"message":"slow down"}}');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("providerFetch", () => {
  it("posts the body with its headers and streams the answer as it comes, headers and status intact", async () => {
    const response = await providerFetch(`${origin}/stream`, {
      method: "POST",
      headers: { Authorization: "Bearer k", "Content-Type": "application/json" },
      body: '{"a":"é"}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("set-cookie")).toBe("a=1, b=2");
    expect(await response.text()).toBe("data: one\n\ndata: two\n\n");
    expect(seen.at(-1)).toMatchObject({ method: "POST", body: '{"a":"é"}', headers: { authorization: "Bearer k", "content-length": "10" } });
  });

  it("sends headers given as Headers or as pairs, and one Content-Length, the body's own", async () => {
    for (const headers of [
      new Headers({ "X-Key": "k", "Content-Length": "1" }),
      [
        ["X-Key", "k"],
        ["content-length", "1"],
      ] as [string, string][],
    ]) {
      await (await providerFetch(`${origin}/stream`, { method: "POST", headers, body: "{}" })).text();
      expect(seen.at(-1)!.headers).toMatchObject({ "x-key": "k", "content-length": "2" });
    }
    await (await providerFetch(`${origin}/stream`, { method: "POST", headers: { "Content-Length": "1" }, body: "{}" })).text();
    expect(seen.at(-1)!.headers["content-length"]).toBe("2");
  });

  it("answers with the platform's Response after @hono/node-server put its lighter one in the global's place, loaded before or after", async () => {
    const platform = { Request: globalThis.Request, Response: globalThis.Response };
    getRequestListener(() => new Response("unused"));
    try {
      expect(globalThis.Response).not.toBe(platform.Response);
      vi.resetModules();
      const loadedAfter = (await import("./provider-fetch.ts")).providerFetch;
      expect(loadedAfter).not.toBe(providerFetch);
      for (const fetchFrom of [providerFetch, loadedAfter]) {
        const response = await fetchFrom(`${origin}/stream`, { method: "POST", body: "{}" });
        // The lighter one passes instanceof (it extends the platform's), so the prototype itself is checked.
        expect(Object.getPrototypeOf(response)).toBe(platform.Response.prototype);
        expect(await response.text()).toBe("data: one\n\ndata: two\n\n");
      }
    } finally {
      Object.defineProperty(globalThis, "Request", { value: platform.Request });
      Object.defineProperty(globalThis, "Response", { value: platform.Response });
    }
  });

  it("fails the call, and leaves the process up, when the status line is one the platform's Response refuses", async () => {
    for (const statusLine of ["HTTP/1.1 600 Weird", "HTTP/1.1 200 O\x01K"]) {
      const odd = createNetServer((socket) => {
        socket.on("error", () => {});
        socket.once("data", () => socket.end(`${statusLine}\r\nContent-Length: 2\r\n\r\nok`));
      });
      await new Promise<void>((resolve) => odd.listen(0, "127.0.0.1", resolve));
      try {
        const call = providerFetch(`http://127.0.0.1:${(odd.address() as { port: number }).port}/v1`, { method: "POST", body: "{}" });
        await expect(call).rejects.toThrow(/status/i);
      } finally {
        await new Promise((resolve) => odd.close(resolve));
      }
    }
  });

  it("gives an error status and its body back as fetch does", async () => {
    const response = await providerFetch(`${origin}/limited`, { method: "POST", body: "{}" });
    expect(response.status).toBe(429);
    expect(response.ok).toBe(false);
    expect(await response.json()).toEqual({ error: { message: "slow down" } });
  });

  it("answers 204 with no body", async () => {
    const response = await providerFetch(`${origin}/empty`);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("ends the answer's stream with the abort's reason when the call is aborted mid-answer", async () => {
    const controller = new AbortController();
    const response = await providerFetch(`${origin}/hang`, { method: "POST", body: "{}", signal: controller.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: first\n\n");
    controller.abort(new Error("stopped by the user"));
    await expect(reader.read()).rejects.toThrow(/stopped by the user|aborted/);
  });

  it("refuses a call aborted before it starts", async () => {
    await expect(providerFetch(`${origin}/stream`, { method: "POST", body: "{}", signal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
  });

  it("errors the answer's stream, never hangs, when the connection drops before its end", async () => {
    const response = await providerFetch(`${origin}/drop`, { method: "POST", body: "{}" });
    await expect(response.text()).rejects.toThrow();
  });

  it("refuses an unreachable server as fetch does", async () => {
    await expect(providerFetch("http://127.0.0.1:1/v1", { method: "POST", body: "{}" })).rejects.toThrow(/ECONNREFUSED/);
  });

  it("leaves a body that is not a string to the global fetch", async () => {
    const response = await providerFetch(`${origin}/stream`, { method: "POST", body: new TextEncoder().encode("bytes") });
    expect(await response.text()).toBe("data: one\n\ndata: two\n\n");
    expect(seen.at(-1)!.body).toBe("bytes");
  });
});
