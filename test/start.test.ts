import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WEB_APPS, WORKDESK_WEB } from "../apps/web-apps.ts";
import { bundleStatus } from "../apps/web-bundle/bundle-status.ts";

// Timeouts are generous on purpose: a Vite build on a busy two-core machine can take minutes,
// and these tests check what `npm start` does, not how fast the machine is.
const BUILDS = 300_000;
const SPAWNS = 120_000;

const dataDirs = mkdtempSync(join(tmpdir(), "tether-start-"));
afterAll(() => rmSync(dataDirs, { recursive: true, force: true }));

interface Started {
  child: ReturnType<typeof spawn>;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
  /** Everything printed is read: the output's pipes are closed by all who held them (npm, and the server after it). */
  closed: Promise<void>;
}
const running = new Set<Started>();

/**
 * The environment without vitest's NODE_ENV=test: a newcomer's shell has none, and with it Vite bundles React's
 * development build, which the stamp then passes off as current to every later `npm start`.
 */
const { NODE_ENV: _testing, ...newcomer } = process.env;

/** `npm start` exactly as a newcomer runs it, on a free port and a data folder of its own. */
function npmStart(env: Record<string, string> = {}): Started {
  const child = spawn("npm", ["start"], {
    env: { ...newcomer, PORT: "0", HOST: "127.0.0.1", TETHER_DATA_DIR: mkdtempSync(join(dataDirs, "data-")), TETHER_MODEL: "", ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  groups.add(child.pid!);
  const started: Started = {
    child,
    stdout: "",
    stderr: "",
    exited: new Promise((resolve) => child.on("exit", (code) => resolve(code))),
    closed: new Promise((resolve) => child.on("close", () => resolve())),
  };
  child.stdout!.on("data", (chunk) => (started.stdout += chunk));
  child.stderr!.on("data", (chunk) => (started.stderr += chunk));
  running.add(started);
  void started.exited.then(() => running.delete(started));
  return started;
}

/** The URL the server prints once it listens; rejects with everything it printed if it exits first. */
function urlOf(started: Started): Promise<string> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const match = /Tether demo running at (http:\/\/\S+)/.exec(started.stdout);
      if (match) resolve(match[1]!);
    };
    look();
    started.child.stdout!.on("data", look);
    void started.exited.then(async (code) => {
      await settledWithin(started.closed, 5_000);
      reject(new Error(`npm start exited with ${code}:\n${started.stdout}${started.stderr}`));
    });
  });
}

const groups = new Set<number>();
afterEach(async () => {
  // A stop that hangs must not hang the suite, and a server its npm left behind must not outlive it.
  for (const started of running) {
    process.kill(-started.child.pid!, "SIGTERM");
    await Promise.race([started.exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  }
  for (const group of groups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // already gone
    }
  }
  groups.clear();
});

/** Every file of the built bundle with its modification time: a build rewrites them all. */
function bundleFiles(): Record<string, number> {
  const files = readdirSync(WORKDESK_WEB.outDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(
    files.map((entry) => [relative(WORKDESK_WEB.outDir, join(entry.parentPath, entry.name)), statSync(join(entry.parentPath, entry.name)).mtimeMs]),
  );
}

describe("npm start on a fresh clone, before the web bundle is built", () => {
  beforeAll(() => rmSync(WORKDESK_WEB.outDir, { recursive: true, force: true }));

  it.each([
    ["an unknown provider", { TETHER_MODEL: "skynet:t-800" }, /model_provider_unknown.*"skynet"/],
    ["a provider without its key", { TETHER_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "" }, /model_config_missing.*OPENAI_API_KEY/],
    ["a malformed model", { TETHER_MODEL: "openai-compatible:llama3" }, /config_invalid.*openai-compatible:<model>@/],
  ])("refuses to start on %s, saying which setting to fix before building anything", { timeout: SPAWNS }, async (_name, env, message) => {
    const started = npmStart(env);
    expect(await started.exited).toBe(1);
    await settledWithin(started.closed, 5_000); // 'exit' can come before the last of what it printed
    expect(started.stderr).toMatch(message);
    expect(started.stdout).not.toMatch(/Building/);
    expect(existsSync(WORKDESK_WEB.outDir)).toBe(false);
  });

  it(
    "builds the missing bundle, saying why in one line and how long in another, then serves the demo, its pages and each agent's model",
    { timeout: BUILDS },
    async () => {
      const started = npmStart();
      const url = await urlOf(started);
      expect(started.stdout).toMatch(/Building the web pages \([^)]*workdesk[^;)]*: not built yet/);
      expect(started.stdout).toMatch(/Web pages built in \d+\.\d s/);
      // Nothing but those steps: no warning from serveStatic about the folder the build has yet to write, none from the bundler.
      expect(`${started.stdout}${started.stderr}`).not.toMatch(/serveStatic|is not found|"use client"|\(!\)/);
      expect(started.stdout).toMatch(/agent workdesk: offline playbook model \(playbook:workdesk\)/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const page = await fetch(`${url}/work-requests/R-1042`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`<div id="root">`);
      const run = await runAsKim(url, "start-1", "find badge reader requests");
      expect(await run.text()).toContain("Replace broken badge reader at Gate 3");
    },
  );
});

describe("npm start with a current web bundle", () => {
  // Reuses the bundle the fresh-clone start built; builds only when this block runs alone.
  beforeAll(async () => {
    if (WEB_APPS.every((app) => bundleStatus(app).state === "current")) return;
    const build = spawn("npm", ["run", "build"], { env: newcomer, stdio: "ignore" });
    const code = await new Promise((resolve) => build.on("exit", resolve));
    expect(code).toBe(0);
  }, BUILDS);

  it("serves the demo without building, saying the bundle is current and leaving it untouched", { timeout: SPAWNS }, async () => {
    const before = bundleFiles();
    const started = npmStart();
    const url = await urlOf(started);
    expect(started.stdout).toMatch(/Web pages are current \(workdesk, recipes, runs, dojo\): reusing them/);
    expect(started.stdout).not.toMatch(/Building/);
    expect(started.stdout).toContain(
      `pages: ${url}/ (Workdesk), ${url}/recipes/ (Recipes), ${url}/runs/ (run records), ${url}/dojo/ (the AG-UI dojo's features)`,
    );
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${url}/dojo/shared_state`)).text()).toContain("<title>AG-UI dojo · Tether</title>");
    expect((await fetch(`${url}/tools.manifest.json`)).status).toBe(200);
    expect(bundleFiles()).toEqual(before);
  });

  it.each(["SIGINT", "SIGTERM"] as const)(
    "stops cleanly on %s to its whole process group, as a terminal's Ctrl-C or a supervisor sends it, leaving no process of it behind",
    { timeout: SPAWNS },
    async (signal) => {
      const started = npmStart();
      const url = await urlOf(started);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const group = started.child.pid!;
      // Under npm the server gets a Ctrl-C twice, from the terminal and from npm: the second must not cut the first's stop short.
      process.kill(-group, signal);
      await expectStopped(started, group, url, signal);
      expect(started.stdout, "one signal, passed on by npm as well, was counted twice").not.toMatch(/stopped now/);
    },
  );

  it("stops cleanly on SIGTERM to npm alone, as docker stop or kill <pid> sends it", { timeout: SPAWNS }, async () => {
    const started = npmStart();
    const url = await urlOf(started);
    const group = started.child.pid!;
    process.kill(group, "SIGTERM");
    await expectStopped(started, group, url, "SIGTERM to npm");
  });
});

describe("npm start stopping while a run waits on a model that never answers", () => {
  let model: Server | undefined;
  let asked = false;
  afterEach(async () => {
    model?.closeAllConnections();
    await new Promise((done) => (model ? model.close(done) : done(undefined)));
  });

  /** An OpenAI-compatible model that starts its answer and never ends it: a stalled provider. */
  function stalledModel(): Promise<string> {
    model = createServer((request, response) => {
      asked = true;
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        const chunk = {
          id: "c",
          object: "chat.completion.chunk",
          created: 1,
          model: "m",
          choices: [{ index: 0, delta: { role: "assistant", content: "…" }, finish_reason: null }],
        };
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      });
    });
    return new Promise((resolve) => model!.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(model!.address() as AddressInfo).port}/v1`)));
  }

  it("lets the run go on after one Ctrl-C, stops it on the next and stores it as stopped, then stops", { timeout: SPAWNS }, async () => {
    const dataDir = mkdtempSync(join(dataDirs, "data-"));
    const started = npmStart({ TETHER_DATA_DIR: dataDir, TETHER_MODEL: `openai-compatible:m@${await stalledModel()}` });
    const url = await urlOf(started);
    const run = await runAsKim(url, "stall-1", "hello");
    expect(run.status).toBe(200);
    // Stopping cuts the server's streams (a client comes back to another server); the run goes on until it ends.
    void run.text().catch(() => {});
    const group = started.child.pid!;
    await expect.poll(() => asked, { timeout: 10_000 }).toBe(true);

    process.kill(-group, "SIGINT");
    await expect.poll(() => started.stdout).toMatch(/runs in progress end first/);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(running.has(started), "one Ctrl-C must not cut a run in progress short").toBe(true);

    process.kill(-group, "SIGINT");
    await expectStopped(started, group, url, "a second Ctrl-C");
    expect(started.stdout).toMatch(/1 run\(s\) in progress stopped now/);
    const db = new Database(join(dataDir, "tether.db"), { readonly: true });
    try {
      const stored = db.prepare("SELECT status, error FROM runs WHERE run_id = ?").get("stall-1-r1") as { status: string; error: string };
      expect(stored.status).toBe("error");
      expect(JSON.parse(stored.error)).toMatchObject({ code: "instance_lost" });
    } finally {
      db.close();
    }
  });
});

/** Kim signs in and starts run `<threadId>-r1` on the Workdesk agent: the answer's response, its events streaming. */
async function runAsKim(url: string, threadId: string, content: string): Promise<Response> {
  const { token } = await (
    await fetch(`${url}/api/demo/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user: "kim" }) })
  ).json();
  return fetch(`${url}/api/agents/workdesk/run`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ threadId, runId: `${threadId}-r1`, messages: [{ id: "u1", role: "user", content }], tools: [], context: [] }),
  });
}

/** npm gone within 15 s, the server's stop run to its end (not cut by a signal), and nothing of the group left. */
async function expectStopped(started: Started, group: number, url: string, what: string) {
  const stopped = await Promise.race([started.exited.then(() => true), new Promise((resolve) => setTimeout(resolve, 15_000, false))]);
  expect(stopped, `npm start was still running 15 s after ${what}`).toBe(true);
  // npm and the server: once npm is gone, neither may still be running. npm may exit before the server has
  // finished its stop, so what the server printed is read once it is gone too.
  await expect.poll(() => groupAlive(group), { timeout: 10_000 }).toBe(false);
  const read = await settledWithin(started.closed, 5_000);
  expect(read, "the output's pipes were still open 5 s after the last process of npm start was gone").toBe(true);
  expect(started.stdout).toMatch(/Tether demo stopped\./);
  expect(started.stderr).not.toMatch(/could not stop cleanly/);
  await expect(fetch(`${url}/healthz`)).rejects.toThrow();
}

/** Whether the promise settled within `ms`: a process that kept npm's output open must not hold a test until its timeout, saying nothing. */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, ms, false))]);
}

/** Whether any process of the group still runs (signal 0 checks without sending anything). */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}
