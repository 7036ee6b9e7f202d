import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { errorHandler } from "../errors.ts";
import { silentLogger } from "../logger.ts";
import { isJsonContentType, requireJson } from "./require-json.ts";

function appWithHandler(seen: string[]) {
  const app = new Hono();
  app.onError(errorHandler(silentLogger));
  app.use("*", requireJson());
  app.all("/thing", async (c) => {
    seen.push(c.req.method);
    return c.json({ done: true });
  });
  return app;
}

describe("isJsonContentType", () => {
  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "APPLICATION/JSON;charset=UTF-8",
    "application/merge-patch+json",
    "application/vnd.api+json ",
  ])("accepts %s", (type) => {
    expect(isJsonContentType(type)).toBe(true);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json-seq", "text/json", "", undefined])(
    "refuses %s",
    (type) => {
      expect(isJsonContentType(type)).toBe(false);
    },
  );
});

describe("requireJson", () => {
  it.each(["POST", "PUT", "PATCH", "DELETE"])("refuses a text/plain %s with 415 unsupported_media_type before the handler runs", async (method) => {
    const seen: string[] = [];

    const response = await appWithHandler(seen).request("/thing", { method, headers: { "Content-Type": "text/plain" }, body: "{}" });

    expect(response.status).toBe(415);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("unsupported_media_type");
    expect(error.message).toBe(`Send this ${method} with Content-Type: application/json (got "text/plain").`);
    expect(seen).toEqual([]);
  });

  it("refuses a POST with no Content-Type, saying so", async () => {
    const response = await appWithHandler([]).request("/thing", { method: "POST" });

    expect(response.status).toBe(415);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/got no Content-Type/);
  });

  it("lets a JSON POST and a GET without a body through", async () => {
    const seen: string[] = [];
    const app = appWithHandler(seen);

    expect((await app.request("/thing", { method: "POST", headers: { "Content-Type": "application/json; charset=utf-8" }, body: "{}" })).status).toBe(200);
    expect((await app.request("/thing")).status).toBe(200);
    expect(seen).toEqual(["POST", "GET"]);
  });
});
