import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { servePages } from "./serve-pages.ts";

let folder: string;
let dist: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "tether-pages-"));
  dist = join(folder, "dist");
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(folder, { recursive: true, force: true });
});

/** What Vite leaves in an app's dist. */
function build() {
  mkdirSync(join(dist, "assets"), { recursive: true });
  writeFileSync(join(dist, "index.html"), `<div id="root"></div>`);
  writeFileSync(join(dist, "assets/main-1a2b.js"), "render()");
  writeFileSync(join(dist, "tools.manifest.json"), "[]");
}

describe("servePages", () => {
  it("says nothing on the console when set up before the pages are built, answers 503 until they are, then serves them", async () => {
    const consoleError = vi.spyOn(console, "error");
    const app = new Hono();
    servePages(app, dist);

    expect((await app.request("/work-requests/R-1042")).status).toBe(503);
    expect((await app.request("/tools.manifest.json")).status).toBe(503);
    expect((await app.request("/assets/main-1a2b.js")).status).toBe(404);

    build();
    const page = await app.request("/work-requests/R-1042");
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(`<div id="root"></div>`);
    expect(await (await app.request("/assets/main-1a2b.js")).text()).toBe("render()");
    expect((await app.request("/tools.manifest.json")).status).toBe(200);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("answers a missing asset with 404, not the page, and leaves the API to its routes", async () => {
    build();
    const app = new Hono();
    servePages(app, dist);
    app.get("/api/ping", (c) => c.text("pong"));

    expect((await app.request("/assets/main-0000.js")).status).toBe(404);
    expect(await (await app.request("/api/ping")).text()).toBe("pong");
  });

  it("serves an app under its base, and sends the base without its slash to it", async () => {
    build();
    const app = new Hono();
    servePages(app, dist, "/recipes");

    const bare = await app.request("/recipes");
    expect(bare.status).toBe(302);
    expect(bare.headers.get("location")).toBe("/recipes/");
    expect(await (await app.request("/recipes/assets/main-1a2b.js")).text()).toBe("render()");
    expect(await (await app.request("/recipes/cookbook")).text()).toBe(`<div id="root"></div>`);
  });
});
