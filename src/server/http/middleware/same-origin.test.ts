import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorHandler } from "../errors.ts";
import { silentLogger } from "../logger.ts";
import { sameOrigin, type SameOriginOptions } from "./same-origin.ts";

function appWith(options?: SameOriginOptions) {
  const app = new Hono();
  app.onError(errorHandler(silentLogger));
  app.use("*", sameOrigin(options));
  app.all("/thing", (c) => c.json({ done: true }));
  return app;
}

/** Sends to http://tether.test/thing, so the server's own origin is http://tether.test. */
async function send(method: string, headers: Record<string, string>, options?: SameOriginOptions) {
  const response = await appWith(options).request("http://tether.test/thing", { method, headers });
  const body = (await response.json()) as { done?: boolean; error?: { code: string; message: string } };
  return { status: response.status, code: body.error?.code, message: body.error?.message };
}

const refused = { status: 403, code: "cross_origin_request" };

describe("sameOrigin", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])("refuses a cross-site %s", async (method) => {
    expect(await send(method, { "Sec-Fetch-Site": "cross-site" })).toMatchObject(refused);
  });

  it.each(["GET", "HEAD", "OPTIONS"])("lets a cross-site %s through: it changes nothing", async (method) => {
    const response = await appWith().request("http://tether.test/thing", {
      method,
      headers: { "Sec-Fetch-Site": "cross-site", Origin: "http://evil.example" },
    });
    expect(response.status).toBe(200);
  });

  it("refuses same-site and none, which are not the app's own page", async () => {
    expect(await send("POST", { "Sec-Fetch-Site": "same-site" })).toMatchObject(refused);
    expect(await send("POST", { "Sec-Fetch-Site": "none" })).toMatchObject(refused);
  });

  it("says what to do: send from the app's origin, or use a Bearer token", async () => {
    expect((await send("POST", { "Sec-Fetch-Site": "cross-site" })).message).toMatch(/own origin.*Authorization: Bearer/);
  });

  it("accepts Sec-Fetch-Site: same-origin with this host's Origin", async () => {
    expect(await send("POST", { "Sec-Fetch-Site": "same-origin", Origin: "http://tether.test" })).toEqual({ status: 200 });
  });

  it("refuses an Origin of another host, another port or another scheme's default port", async () => {
    expect(await send("POST", { Origin: "http://evil.example" })).toMatchObject(refused);
    expect(await send("POST", { Origin: "http://tether.test:8080" })).toMatchObject(refused);
    expect(await send("POST", { Origin: "https://tether.test:80" })).toMatchObject(refused);
  });

  it("refuses Origin: null (a sandboxed frame) and an Origin that is not a URL", async () => {
    expect(await send("POST", { Origin: "null" })).toMatchObject(refused);
    expect(await send("POST", { Origin: "garbage" })).toMatchObject(refused);
  });

  it("refuses a same-origin claim whose Origin names another host", async () => {
    expect(await send("POST", { "Sec-Fetch-Site": "same-origin", Origin: "http://evil.example" })).toMatchObject(refused);
  });

  it("accepts a request with neither header (not a browser, or an old one; SameSite=Strict covers those)", async () => {
    expect(await send("POST", {})).toEqual({ status: 200 });
  });

  it("accepts any origin when the request carries Authorization: Bearer", async () => {
    expect(await send("POST", { Authorization: "Bearer abc", "Sec-Fetch-Site": "cross-site", Origin: "http://evil.example" })).toEqual({ status: 200 });
  });

  it("does not treat Basic credentials as Bearer: a browser may send those by itself", async () => {
    expect(await send("POST", { Authorization: "Basic a2ltOg==", "Sec-Fetch-Site": "cross-site" })).toMatchObject(refused);
  });

  it("accepts a trusted origin, whatever Sec-Fetch-Site says", async () => {
    const options = { trustedOrigins: ["https://app.example.com"] };

    expect(await send("POST", { Origin: "https://app.example.com", "Sec-Fetch-Site": "same-site" }, options)).toEqual({ status: 200 });
    expect(await send("POST", { Origin: "https://other.example.com", "Sec-Fetch-Site": "same-site" }, options)).toMatchObject(refused);
  });
});
