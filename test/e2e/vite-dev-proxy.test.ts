import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { createServer, defaultClientConditions, type ProxyOptions, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listening } from "@tether-agent/tether/node";
import { createTetherApp, defineAgent, silentLogger, type TetherApp, type TetherUser } from "@tether-agent/tether/server";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createScriptedModel } from "@tether-agent/tether/testing";
import { launchChromium } from "./browser.ts";

const PAGE = fileURLToPath(new URL("../fixtures/vite-dev-page/", import.meta.url));
const DEV: TetherUser = { id: "dev" };

/** The Cookie headers the server was sent, through the proxy. */
const cookiesSeen = new Set<string>();

/** The app's own authentication: a header of its own, else a session cookie. */
function authenticate(request: Request): TetherUser | undefined {
  cookiesSeen.add(request.headers.get("cookie") ?? "");
  if (request.headers.get("x-dev-user") === "dev") return DEV;
  return /(?:^|;\s*)dev_session=dev(?:;|$)/.test(request.headers.get("cookie") ?? "") ? DEV : undefined;
}

/**
 * The usual dev setup: the page on Vite's dev server, `/api` proxied to a
 * Tether server on another port. Vite's string form of a proxy rewrites Host
 * (`changeOrigin: true`), so the server sees the page's Origin as another
 * origin; the object form keeps Host.
 */
describe("a page on Vite's dev server, proxying /api to Tether", () => {
  let tether: TetherApp;
  let server: Listening;
  let browser: Browser;
  const vites: ViteDevServer[] = [];
  const cacheDir = mkdtempSync(join(tmpdir(), "tether-vite-"));

  async function startVite(proxy: string | ProxyOptions): Promise<string> {
    const vite = await createServer({
      configFile: false,
      root: PAGE,
      cacheDir,
      logLevel: "silent",
      resolve: { conditions: ["tether-source", ...defaultClientConditions] },
      // From port 5173 on, the first free one. The repository's node_modules is a link to another folder, and the
      // pre-bundled dependencies live in cacheDir: both outside the root Vite would serve from.
      server: { host: "127.0.0.1", hmr: false, fs: { strict: false }, proxy: { "/api": proxy } },
    });
    await vite.listen();
    vites.push(vite);
    return vite.resolvedUrls!.local[0]!;
  }

  /** Opens the page in a browser context of its own (its own cookies), sending "hello"; what the page shows. */
  async function sendFrom(pageUrl: string, auth: "header" | "cookie") {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${pageUrl}?auth=${auth}`);
      await page.waitForFunction(() => document.querySelector("#answer")!.textContent || document.querySelector("#unsent")!.textContent, null, {
        timeout: 30_000,
      });
      return { answer: await page.textContent("#answer"), unsent: await page.textContent("#unsent") };
    } finally {
      await context.close();
    }
  }

  beforeAll(async () => {
    tether = await createTetherApp({
      agents: [defineAgent({ id: "dev", model: createScriptedModel([{ text: "Hello from Tether." }, { text: "Hello from Tether." }]) })],
      authenticate,
      store: createMemoryRunStore(),
      logger: silentLogger,
    });
    server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    for (const vite of vites) await vite.close();
    await server?.close();
    await tether?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("answers an app that authenticates by a header of its own, through a proxy that rewrites Host, cookies and all", async () => {
    const page = await startVite(server.url);

    expect(await sendFrom(page, "header")).toEqual({ answer: "Hello from Tether.", unsent: "" });
    expect(cookiesSeen).toContain("theme=dark");
  });

  it("answers an app that signs in by cookie through the object form, which keeps Host", async () => {
    const page = await startVite({ target: server.url });

    expect(await sendFrom(page, "cookie")).toEqual({ answer: "Hello from Tether.", unsent: "" });
  });

  it("still refuses a cookie sign-in through a proxy that rewrites Host: the page's origin is another one until trustedOrigins names it", async () => {
    const page = await startVite(server.url);

    const shown = await sendFrom(page, "cookie");

    expect(shown.answer).toBe("");
    expect(shown.unsent).toMatch(/^Refused a request authenticated by cookie because it came from http:\/\/127\.0\.0\.1:\d+.*trustedOrigins/);
  });
});
