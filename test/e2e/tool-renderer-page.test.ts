import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { createServer, defaultClientConditions, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { listen, type Listening } from "@tether-agent/tether/node";
import { createPlaybookModel, createTetherApp, defineAgent, defineTool, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { launchChromium } from "./browser.ts";

const PAGE = fileURLToPath(new URL("../fixtures/tool-renderer-page/", import.meta.url));

/** The dojo's backend_tool_rendering agent, reduced: `get_weather` runs on the server, then the model speaks from its result. */
const weatherAgent = defineAgent({
  id: "weather",
  tools: [
    defineTool({
      name: "get_weather",
      description: "The weather at a place.",
      parameters: z.object({ location: z.string() }),
      execute: () => ({ temperature: 18, conditions: "Clear" }),
    }),
  ],
  model: createPlaybookModel(
    {
      name: "weather",
      respond: ({ results }) =>
        results.length > 0 ? { text: "It is 18° and clear in Paris." } : { toolCalls: [{ toolName: "get_weather", input: { location: "Paris" } }] },
    },
    // Slow enough that the arguments stream in over several paints.
    { chunkDelayMs: 20 },
  ),
});

describe("useToolRenderer on a page of Tether's own parts, against a server tool", () => {
  let tether: TetherApp;
  let server: Listening;
  let vite: ViteDevServer;
  let browser: Browser;
  const cacheDir = mkdtempSync(join(tmpdir(), "tether-vite-"));

  beforeAll(async () => {
    tether = await createTetherApp({
      agents: [weatherAgent],
      authenticate: (request) => (request.headers.get("x-dev-user") === "dev" ? { id: "dev" } : undefined),
      store: createMemoryRunStore(),
      logger: silentLogger,
    });
    server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
    vite = await createServer({
      configFile: false,
      root: PAGE,
      cacheDir,
      logLevel: "silent",
      resolve: { conditions: ["tether-source", ...defaultClientConditions] },
      server: { host: "127.0.0.1", port: 0, hmr: false, fs: { strict: false }, proxy: { "/api": { target: server.url } } },
    });
    await vite.listen();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await vite?.close();
    await server?.close();
    await tether?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  interface Report {
    url: string;
    body: { kind: string; message: string; details: { code: string; toolName: string; toolCallId: string } };
  }

  /** Opens the page, asks for the weather, and returns once the answer is in, with the reports the page posts. */
  async function ask(query: string): Promise<{ page: Page; reports: Report[] }> {
    const page = await (await browser.newContext()).newPage();
    const reports: Report[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/reports")) reports.push({ url: request.url(), body: JSON.parse(request.postData() ?? "{}") });
    });
    await page.goto(`${vite.resolvedUrls!.local[0]!}${query}`);
    await page.getByRole("button", { name: "Ask" }).click();
    await page.getByText("It is 18° and clear in Paris.").waitFor({ timeout: 30_000 });
    return { page, reports };
  }

  it("draws the call as a card from its arguments and result, and gives the line back when the card's component unmounts", async () => {
    const { page } = await ask("");
    const card = page.getByRole("region", { name: "Weather in Paris" });
    expect(await card.textContent()).toBe("18°, Clear");
    expect(await page.locator(".tether-activity").count()).toBe(0);

    await page.getByRole("checkbox", { name: "Weather cards" }).uncheck();
    await expect.poll(() => page.locator(".tether-activity__words").allTextContents()).toEqual(["Done: Get weather"]);
    expect(await card.count()).toBe(0);
    await page.context().close();
  });

  it("shows the call's line where its renderer throws, keeps the conversation, and reports each error once to the run's record", async () => {
    const { page, reports } = await ask("?card=broken");

    expect(await page.locator(".tether-activity__words").allTextContents()).toEqual(["Done: Get weather"]);
    expect(await page.getByRole("article", { name: "You said" }).textContent()).toBe("weather in Paris");
    // The render function threw while the arguments streamed (again with each part: told once), the card's component once the result was in.
    await expect.poll(() => reports.map((report) => report.body.message).sort()).toEqual(["No location yet.", "The weather card broke."]);
    const [report] = reports;
    expect(report!.body).toMatchObject({ kind: "renderer-error", details: { code: "RENDERER_THREW", toolName: "get_weather" } });
    const runId = /\/runs\/([^/]+)\/reports$/.exec(report!.url)![1]!;
    const record = await (await fetch(new URL(`/api/runs/${runId}/record`, server.url), { headers: { "x-dev-user": "dev" } })).json();
    expect(record.reports.map((stored: { body: { message: string } }) => stored.body.message).sort()).toEqual(["No location yet.", "The weather card broke."]);
    await page.context().close();
  });
});
