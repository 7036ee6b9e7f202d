import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../apps/workdesk/agent/index.ts";
import { startDemoServer, type DemoServer } from "./helpers/demo-server.ts";
import { createScriptedApp } from "./helpers/scripted-app.ts";

/**
 * Cookie-authenticated mutations must come from the server's own pages: a
 * page on another origin of the same site could otherwise post a CORS-simple
 * request (text/plain, no preflight) that the browser sends with the cookie.
 */
describe("mutations from other origins", () => {
  let server: DemoServer;
  let cookie: string;
  let runId: string;

  const url = (path: string) => `${server.url}${path}`;
  const ownOrigin = () => new URL(server.url).origin;
  const report = (toolCallId: string) => JSON.stringify({ kind: "tool-outcome", toolCallId, outcome: { status: "succeeded" } });
  const reportCount = async () => (await server.demo.tether.store.listReports(runId)).length;
  const postReport = (headers: Record<string, string>, body = report("call-1")) => fetch(url(`/api/runs/${runId}/reports`), { method: "POST", headers, body });
  const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

  beforeAll(async () => {
    server = await startDemoServer();
    const login = await fetch(url("/api/demo/login"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: "kim" }),
    });
    cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect(cookie).toMatch(/^tether_token=/);
    runId = "xo-r1";
    const run = await fetch(url("/api/agents/workdesk/run"), {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${server.token("kim")}` },
      body: JSON.stringify({
        threadId: "xo",
        runId,
        messages: [{ id: "xo-u1", role: "user", content: "open the work request list" }],
        tools: [toAgUiTool(navigateToScreen)],
        context: [],
      }),
    });
    await run.text();
  });
  afterAll(async () => {
    await server.close();
  });

  it("refuses a cookie-only text/plain report with 415 unsupported_media_type and stores nothing", async () => {
    const before = await reportCount();

    const response = await postReport({ Cookie: cookie, "Content-Type": "text/plain" });

    expect(response.status).toBe(415);
    const error = await errorCode(response);
    expect(error.code).toBe("unsupported_media_type");
    expect(error.message).toMatch(/application\/json/);
    expect(await reportCount()).toBe(before);
  });

  it("refuses a report with no Content-Type at all with 415", async () => {
    const before = await reportCount();

    const response = await fetch(url(`/api/runs/${runId}/reports`), { method: "POST", headers: { Cookie: cookie }, body: new Blob([report("call-1")]) });

    expect(response.status).toBe(415);
    expect((await errorCode(response)).code).toBe("unsupported_media_type");
    expect(await reportCount()).toBe(before);
  });

  it("accepts a same-origin cookie report sent as JSON", async () => {
    const before = await reportCount();

    const response = await postReport({
      Cookie: cookie,
      "Content-Type": "application/json; charset=utf-8",
      Origin: ownOrigin(),
      "Sec-Fetch-Site": "same-origin",
    });

    expect(response.status).toBe(202);
    expect(await reportCount()).toBe(before + 1);
  });

  it("refuses a cookie report from another origin of the same site with 403 cross_origin_request", async () => {
    const before = await reportCount();

    const response = await postReport({
      Cookie: cookie,
      "Content-Type": "application/json",
      Origin: "http://blog.127.0.0.1.nip.io",
      "Sec-Fetch-Site": "same-site",
    });

    expect(response.status).toBe(403);
    const error = await errorCode(response);
    expect(error.code).toBe("cross_origin_request");
    expect(error.message).toMatch(/Bearer/);
    expect(await reportCount()).toBe(before);
  });

  it("refuses a cookie report marked Sec-Fetch-Site: cross-site with 403 cross_origin_request", async () => {
    const before = await reportCount();

    const response = await postReport({ Cookie: cookie, "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site" });

    expect(response.status).toBe(403);
    expect((await errorCode(response)).code).toBe("cross_origin_request");
    expect(await reportCount()).toBe(before);
  });

  it("refuses a cookie report whose Origin names another host, when the browser sends no Sec-Fetch-Site", async () => {
    const before = await reportCount();

    const response = await postReport({ Cookie: cookie, "Content-Type": "application/json", Origin: "http://evil.example" });

    expect(response.status).toBe(403);
    expect((await errorCode(response)).code).toBe("cross_origin_request");
    expect(await reportCount()).toBe(before);
  });

  it("refuses a cookie report with Sec-Fetch-Site: none (typed or bookmarked, not the app's page)", async () => {
    const before = await reportCount();

    const response = await postReport({ Cookie: cookie, "Content-Type": "application/json", "Sec-Fetch-Site": "none" });

    expect(response.status).toBe(403);
    expect(await reportCount()).toBe(before);
  });

  it("accepts a Bearer report from any origin: another page cannot attach the header", async () => {
    const before = await reportCount();

    const response = await postReport({
      Authorization: `Bearer ${server.token("kim")}`,
      "Content-Type": "application/json",
      Origin: "http://evil.example",
      "Sec-Fetch-Site": "cross-site",
    });

    expect(response.status).toBe(202);
    expect(await reportCount()).toBe(before + 1);
  });

  it("accepts a cross-site report carrying both the cookie and a Bearer header: the demo goes by the header", async () => {
    const before = await reportCount();

    const response = await postReport({
      Cookie: cookie,
      Authorization: `Bearer ${server.token("kim")}`,
      "Content-Type": "application/json",
      Origin: "http://evil.example",
      "Sec-Fetch-Site": "cross-site",
    });

    expect(response.status).toBe(202);
    expect(await reportCount()).toBe(before + 1);
  });

  it.each(["Bearer junk", "Basic a2ltOg=="])(
    "refuses a forged cross-site cookie report with Authorization: %s added, storing nothing",
    async (authorization) => {
      const before = await reportCount();

      const response = await postReport({ Cookie: cookie, Authorization: authorization, "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site" });

      // The demo reads the cookie only when no Authorization header is sent, so the junk one is all it goes by.
      expect([response.status, (await errorCode(response)).code]).toEqual([401, "unauthenticated"]);
      expect(await reportCount()).toBe(before);
    },
  );

  it("still requires JSON from a Bearer caller", async () => {
    const before = await reportCount();

    const response = await postReport({ Authorization: `Bearer ${server.token("kim")}`, "Content-Type": "text/plain" });

    expect(response.status).toBe(415);
    expect(await reportCount()).toBe(before);
  });

  it("lets a cookie caller read the record across sites (a GET changes nothing)", async () => {
    const response = await fetch(url(`/api/runs/${runId}/record`), { headers: { Cookie: cookie, "Sec-Fetch-Site": "none" } });

    expect(response.status).toBe(200);
  });

  it("refuses a cross-site cookie cancel with 403 and a text/plain one with 415, before looking at the run", async () => {
    // The run has finished: a cancel that got through would answer 409 run_not_active.
    const crossSite = await fetch(url(`/api/runs/${runId}/cancel`), {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site" },
      body: "{}",
    });
    const plain = await fetch(url(`/api/runs/${runId}/cancel`), { method: "POST", headers: { Cookie: cookie, "Content-Type": "text/plain" }, body: "{}" });
    const sameOrigin = await fetch(url(`/api/runs/${runId}/cancel`), {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json", Origin: ownOrigin() },
      body: "{}",
    });

    expect([crossSite.status, (await errorCode(crossSite)).code]).toEqual([403, "cross_origin_request"]);
    expect([plain.status, (await errorCode(plain)).code]).toEqual([415, "unsupported_media_type"]);
    expect([sameOrigin.status, (await errorCode(sameOrigin)).code]).toEqual([409, "run_not_active"]);
  });

  it("refuses a cross-site cookie run start with 403 before the run exists", async () => {
    const response = await fetch(url("/api/agents/workdesk/run"), {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site" },
      body: JSON.stringify({ threadId: "xo-forged", runId: "xo-forged-r1", messages: [{ id: "f-u1", role: "user", content: "hi" }], tools: [], context: [] }),
    });

    expect(response.status).toBe(403);
    expect((await errorCode(response)).code).toBe("cross_origin_request");
    expect(await server.demo.tether.store.getRun("xo-forged-r1")).toBeUndefined();
  });

  describe("demo sign-in", () => {
    it("refuses a sign-in posted from another site (login CSRF) without setting a cookie", async () => {
      const response = await fetch(url("/api/demo/login"), {
        method: "POST",
        headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site", Origin: "http://evil.example" },
        body: JSON.stringify({ user: "kim" }),
      });

      expect(response.status).toBe(403);
      expect((await errorCode(response)).code).toBe("cross_origin_request");
      expect(response.headers.get("set-cookie")).toBeNull();
    });

    it("refuses a text/plain sign-in with 415 without setting a cookie", async () => {
      const response = await fetch(url("/api/demo/login"), {
        method: "POST",
        headers: { "Content-Type": "text/plain" },
        body: JSON.stringify({ user: "kim" }),
      });

      expect(response.status).toBe(415);
      expect((await errorCode(response)).code).toBe("unsupported_media_type");
      expect(response.headers.get("set-cookie")).toBeNull();
    });

    it("refuses a sign-out posted from another site, leaving the cookie alone", async () => {
      const response = await fetch(url("/api/demo/logout"), {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site" },
        body: "{}",
      });

      expect(response.status).toBe(403);
      expect(response.headers.get("set-cookie")).toBeNull();
    });

    it("signs out a same-origin JSON request", async () => {
      const response = await fetch(url("/api/demo/logout"), {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/json", Origin: ownOrigin(), "Sec-Fetch-Site": "same-origin" },
        body: "{}",
      });

      expect(response.status).toBe(200);
      expect(response.headers.get("set-cookie")).toMatch(/tether_token=;/);
    });
  });

  describe("an app whose authenticate reads no cookie", () => {
    it("serves a run posted from another origin with the browser's cookies along, such as a dev server's page proxied with changeOrigin", async () => {
      const app = await createScriptedApp([{ text: "Hello." }]);
      try {
        const response = await app.tether.app.request("http://127.0.0.1:8787/api/agents/test/run", {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            "x-user": "kim",
            Cookie: "theme=dark",
            Origin: "http://127.0.0.1:5173",
            "Sec-Fetch-Site": "same-origin",
          },
          body: JSON.stringify({ threadId: "xo-vite", runId: "xo-vite-r1", messages: [{ id: "v-u1", role: "user", content: "hi" }], tools: [], context: [] }),
        });

        expect(response.status).toBe(200);
        expect(await response.text()).toContain("RUN_FINISHED");
        expect((await app.store.getRun("xo-vite-r1"))?.status).toBe("finished");
      } finally {
        await app.tether.close();
      }
    });
  });
});
