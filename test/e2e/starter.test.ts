import { LLMock } from "@copilotkit/aimock";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npm } from "../helpers/npm.ts";
import { freePort } from "../helpers/server-process.ts";
import { launchChromium } from "./browser.ts";

/**
 * The starter as a newcomer gets it: `tether init` from the packed tarball, `npm install` of
 * whatever the registry has today within the starter's ranges (no lockfile, no pins: this is
 * where tomorrow's releases of React, Vite, the AI SDK or better-sqlite3 are met first),
 * `npm run typecheck`, `npm start` before and after `npm run build`, `npm run dev`, and the story in
 * Chromium on the offline script, then a reload of it; then the same story on a provider's wire
 * (aimock speaking OpenAI's), which is what OPENAI_API_KEY switches to; last, `npm run dev` with
 * the server's port taken.
 */
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const SCREENSHOT = join(REPO, "docs/screenshots/starter.png");

/** The environment of a newcomer's shell: none of this repository's npm, provider or store settings. */
function newcomerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([key]) => !/^(npm_|OPENAI_|TETHER_)/i.test(key));
  return { ...Object.fromEntries(inherited), ...extra };
}

interface Running {
  /** The address it printed: Vite's page for `npm run dev`, the server for `npm start`. */
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** An npm script of the app, in a process group of its own; resolves once `ready` finds its address in the output. */
async function startScript(app: string, script: "dev" | "start", env: NodeJS.ProcessEnv, ready: (output: string) => string | undefined): Promise<Running> {
  const child: ChildProcess = spawn("npm", ["run", script], { cwd: app, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      // Without colours: where a terminal's settings leak in (FORCE_COLOR in CI), Vite wraps its address in them.
      output += chunk.toString().replace(/\x1b\[[0-9;]*m/g, "");
      const found = ready(output);
      if (found) resolve(found);
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => reject(new Error(`npm run ${script} exited (${code}):\n${output}`)));
    setTimeout(() => reject(new Error(`npm run ${script} did not start within 60 s:\n${output}`)), 60_000).unref();
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { url, output: () => output, stop };
}

/** `npm run dev`; resolves once both the server and the page listen, with the page's address. */
function startDev(app: string, env: NodeJS.ProcessEnv): Promise<Running> {
  return startScript(app, "dev", env, (output) => (output.includes("Tether is listening on") ? /Local:\s+(http:\S+)/.exec(output)?.[1] : undefined));
}

/** `npm start`; resolves once the server listens, with its address. */
function startServer(app: string, env: NodeJS.ProcessEnv): Promise<Running> {
  return startScript(app, "start", env, (output) => /Tether is listening on (http:\S+),/.exec(output)?.[1]);
}

/** `npm run dev` to its end: its exit code and what it printed. */
async function devUntilExit(app: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn("npm", ["run", "dev"], { cwd: app, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGTERM"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  return { code, output };
}

/** Opens the page in a context of its own (a new thread) and asks the assistant for the invoice task. */
async function askForTheInvoice(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => (message.type() === "error" ? errors.push(message.text()) : undefined));
  await page.goto(url);
  await expect.poll(() => page.locator(".task").count()).toBe(4);
  expect(await page.locator('.task[aria-current="true"]').count()).toBe(0);
  await page.getByRole("textbox").fill("open the invoice task");
  await page.keyboard.press("Enter");
  return { page, errors };
}

describe("the starter, written by the packed package's tether init", () => {
  let work: string;
  let app: string;
  let browser: Browser;
  let dev: Running | undefined;
  const mock = new LLMock({ port: 0 });
  const took: Record<string, number> = {};
  const timed = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      took[step] = Math.round(performance.now() - started);
    }
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "tether-starter-"));
    const [packed] = JSON.parse(await timed("pack", () => npm(REPO, ["pack", "--json", "--pack-destination", work]))) as Array<{ filename: string }>;
    const tarball = `./${packed!.filename}`;
    // As the README says it: npx with the tarball, which also becomes the app's dependency.
    await timed("init", () => npm(work, ["exec", "--yes", "--", tarball, "init", "my-app", "--tether", tarball]));
    app = join(work, "my-app");
    // No --prefer-offline and no lockfile: the registry's newest versions within the ranges init wrote.
    await timed("install", () => npm(app, ["install", "--no-audit", "--no-fund"]));
    console.log(`The starter installed, on Node ${process.version}:\n${await npm(app, ["ls", "--depth=0"])}`);

    // The provider's side of the story, on OpenAI's wire: find, open, then speak from the page's outcome.
    mock.addFixture({ match: { toolResultContains: '"succeeded"' }, response: { content: "The page has T-2 open: Send the March invoice." } });
    mock.addFixture({
      match: { toolResultContains: "Send the March invoice" },
      response: { toolCalls: [{ name: "openTask", arguments: JSON.stringify({ taskId: "T-2" }) }] },
    });
    mock.addFixture({
      match: { userMessage: /^open the invoice task$/, hasToolResult: false },
      response: { toolCalls: [{ name: "findTasks", arguments: JSON.stringify({ query: "invoice" }) }] },
    });
    await mock.start();
    browser = await launchChromium();
  }, 900_000);

  afterAll(async () => {
    await dev?.stop();
    await browser?.close();
    await mock.stop();
    console.log(`The starter's steps, in ms: ${JSON.stringify(took)}`);
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it("writes an app whose package.json asks for the tarball by a path from the app, and which type-checks", async () => {
    const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { name: string; dependencies: Record<string, string> };
    expect(manifest.name).toBe("my-app");
    expect(manifest.dependencies["@tether-agent/tether"]).toMatch(/^file:\.\.\/tether-agent-tether-[\d.]+\.tgz$/);
    expect(existsSync(join(app, ".gitignore"))).toBe(true);
    await timed("typecheck", () => npm(app, ["run", "typecheck"]));
  }, 120_000);

  it("serves the page with npm start only once it is built, saying so before, and says sign-in is a placeholder", async () => {
    const env = newcomerEnv({ PORT: String(await freePort()) });
    const before = await startServer(app, env);
    try {
      const response = await fetch(`${before.url}/`);
      expect(response.status).toBe(503);
      expect(await response.text()).toBe("The page is not built: run npm run build, then npm start (npm run dev while developing).");
      await expect.poll(() => before.output()).toContain("Sign-in is a placeholder: everyone is the same user.");
    } finally {
      await before.stop();
    }

    await timed("build", () => npm(app, ["run", "build"]));
    const after = await startServer(app, env);
    try {
      const response = await fetch(`${after.url}/`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("<title>Tasks</title>");
    } finally {
      await after.stop();
    }
  }, 120_000);

  it("runs with npm run dev, and plays the story on the offline script: the server finds the task, the page opens it, the answer is the page's outcome", async () => {
    const ports = { PORT: String(await freePort()), WEB_PORT: String(await freePort()) };
    dev = await timed("dev start", () => startDev(app, newcomerEnv(ports)));
    expect(dev.output()).toContain("its model the offline script");
    // The line after the listening one, which may come in a later chunk of the output.
    await expect.poll(() => dev!.output()).toContain("Sign-in is a placeholder: everyone is the same user.");
    // The build the previous test made is npm start's: under npm run dev the server leaves the page to Vite.
    expect((await fetch(`http://127.0.0.1:${ports.PORT}/`)).status).toBe(404);

    const { page, errors } = await timed("story", async () => {
      const asked = await askForTheInvoice(browser, dev!.url);
      // The browser tool acted on the page: T-2 is open, its notes shown.
      await expect.poll(() => asked.page.locator('.task[aria-current="true"]').getAttribute("id"), { timeout: 20_000 }).toBe("task-T-2");
      await expect
        .poll(() => asked.page.locator(".tether-message--assistant").last().textContent(), { timeout: 20_000 })
        .toBe("Done. The page says: T-2 “Send the March invoice” is open on the page.");
      return asked;
    });
    expect(await page.locator(".task__notes").textContent()).toBe("To Acme Corp: 40 hours at the agreed rate.");
    // The server tool ran before it, on the server; the browser tool's line carries the outcome the page reported.
    expect(await page.locator(".tether-activity__words").allTextContents()).toEqual([
      "Done: Find tasks",
      "Done: Open task. T-2 “Send the March invoice” is open on the page.",
    ]);
    expect(existsSync(join(app, "data/tether.db"))).toBe(true);
    await page.screenshot({ path: SCREENSHOT });

    // A reload picks the thread up where it was (its id is kept in localStorage): the same
    // conversation and timeline, and the browser tool, already run, is not run again.
    const conversation = () => page.locator(".tether-message").allTextContents();
    const timeline = () => page.locator(".tether-activity__words").allTextContents();
    const [said, done] = [await conversation(), await timeline()];
    await timed("reload", async () => {
      await page.reload();
      await expect.poll(() => page.locator(".task").count()).toBe(4);
      await expect.poll(conversation, { timeout: 20_000 }).toEqual(said);
      await expect.poll(timeline).toEqual(done);
      // Time for a second run of openTask to show (it opens T-2, or reports and starts a new run).
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    });
    expect(await conversation()).toEqual(said);
    expect(await timeline()).toEqual(done);
    expect(await page.locator('.task[aria-current="true"]').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("switches to OpenAI's API when OPENAI_API_KEY is set: the same story over the provider's wire, the outcome sent to the model before it answers", async () => {
    await dev?.stop();
    const ports = { PORT: String(await freePort()), WEB_PORT: String(await freePort()) };
    dev = await startDev(app, newcomerEnv({ ...ports, OPENAI_API_KEY: "mock", OPENAI_BASE_URL: `${mock.url}/v1` }));
    expect(dev.output()).toContain("its model gpt-4o-mini");

    const { page, errors } = await askForTheInvoice(browser, dev.url);
    await expect.poll(() => page.locator('.task[aria-current="true"]').getAttribute("id"), { timeout: 20_000 }).toBe("task-T-2");
    await expect
      .poll(() => page.locator(".tether-message--assistant").last().textContent(), { timeout: 20_000 })
      .toBe("The page has T-2 open: Send the March invoice.");
    const requests = mock.getRequests().filter((entry) => entry.path.startsWith("/v1/"));
    expect(requests.map((entry) => entry.path)).toEqual(Array(3).fill("/v1/chat/completions"));
    expect(JSON.stringify(requests[2]!.body)).toContain('\\"status\\":\\"succeeded\\"');
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("stops npm run dev when the server's port is taken, saying so in one line rather than a stack", async () => {
    await dev?.stop();
    const holder = createServer((_, response) => response.end("someone else"));
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as AddressInfo).port;
    const env = newcomerEnv({ PORT: String(port), WEB_PORT: String(await freePort()) });
    try {
      const { code, output } = await timed("port taken", () => devUntilExit(app, env));
      expect(output).toContain(`Port ${port} is in use (another server?): set PORT to another, as in PORT=${port + 1} npm run dev.`);
      expect(output).not.toContain("EADDRINUSE");
      expect(code).toBe(1); // concurrently's code for a command that failed: it ended by itself, not by our timeout
    } finally {
      holder.close();
    }
  }, 60_000);
});
