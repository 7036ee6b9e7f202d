import { LLMock } from "@copilotkit/aimock";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import pg from "pg";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { npm } from "../helpers/npm.ts";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reachablePostgres, serverSchemas } from "../helpers/postgres.ts";
import { launchChromium } from "./browser.ts";
import { guideInstall, readmeAndGuidePackages } from "./guide-install.ts";

/**
 * Tether as another app gets it: the packed tarball installed with the
 * guide's own install commands, unpinned (no path aliases, no workspace,
 * outside the repo), into a fresh NodeNext TypeScript server and a fresh
 * Vite + React app, both built and typechecked, then run with a real
 * OpenAI-wire model (aimock).
 * The server twice, each with one store adapter's driver: SQLite only (no
 * PostgreSQL or Redis driver, no React), and PostgreSQL only (no
 * better-sqlite3, so nothing compiles).
 */
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/installed-app", import.meta.url));
const run = promisify(execFile);

/** Which of `names` are installed in an app's node_modules. */
function installed(app: string, names: string[]): string[] {
  return names.filter((name) => existsSync(join(app, "node_modules", name)));
}

/** Errors TypeScript finds inside the installed package's declaration files, checked even where the app skips library checks. */
async function errorsInTetherDeclarations(cwd: string): Promise<string[]> {
  const output = await npm(cwd, ["exec", "--", "tsc", "--noEmit", "--skipLibCheck", "false"]).catch((error: Error) => error.message);
  return output.split("\n").filter((line) => line.includes("node_modules/@tether-agent/tether/"));
}

/** The installed app's built server, started; resolves with its URL once it listens, rejects with its output if it exits first. */
function startServer(cwd: string, env: NodeJS.ProcessEnv, log: (chunk: string) => void): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, ["dist/server.js"], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const url = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      log(chunk.toString());
      const found = /listening on (\S+)/.exec(output);
      if (found) resolve(found[1]!);
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => reject(new Error(`the installed server exited (${code}):\n${output}`)));
  });
  return { child, url };
}

/** One run through the installed server's HTTP API, no browser: its SSE body and the assistant's words. */
async function postRun(url: string, threadId: string, text: string): Promise<{ status: number; body: string; said: string }> {
  const response = await fetch(`${url}/api/agents/assistant/run`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({
      threadId,
      runId: `${threadId}-r1`,
      messages: [{ id: "u1", role: "user", content: text }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    }),
  });
  const body = await response.text();
  return { status: response.status, body, said: [...body.matchAll(/"delta":"([^"]*)"/g)].map((delta) => delta[1]).join("") };
}

/** Stops a server this test started, once it has exited. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill();
  await exited;
}

describe("the packed package, installed into new apps", () => {
  let work: string;
  let tarball: string;
  let server: ChildProcess | undefined;
  let serverUrl: string;
  let serverLog = "";
  let browser: Browser | undefined;
  const mock = new LLMock({ port: 0 });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "tether-installed-"));
    const [packed] = JSON.parse(await npm(REPO, ["pack", "--json", "--pack-destination", work])) as Array<{ filename: string }>;
    tarball = join(work, packed!.filename);
    const guide = guideInstall(tarball);
    // The guide's own commands, unpinned, in the order a reader runs them; one app after another, as the SQLite
    // server may compile better-sqlite3 and the machine has two cores. No --prefer-offline: resolving afresh from a
    // cache, a package published since could ask for a version the cached lists lack.
    const installs = {
      server: [guide.sqliteServer, guide.typescript],
      // TypeScript without tsx here, to see `tether serve` refuse a .ts module in words.
      "server-pg": [guide.pgServer, ["install", "--save-dev", "typescript", "@types/node", "--no-audit", "--no-fund"]],
      web: [guide.reactApp],
    };
    for (const [app, commands] of Object.entries(installs)) {
      cpSync(join(FIXTURES, app === "web" ? "web" : "server"), join(work, app), { recursive: true });
      // The PostgreSQL server installs nothing native, so it allows no install scripts.
      if (app === "server-pg") {
        const manifest = join(work, app, "package.json");
        const { allowScripts: _native, ...rest } = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, unknown>;
        writeFileSync(manifest, JSON.stringify(rest, null, 2));
      }
      for (const command of commands) await npm(join(work, app), command);
      // What the registry gave today, in the test's output: the versions a reader would get.
      console.info(`${app}: ${await npm(join(work, app), ["ls", "--depth=0"])}`);
    }

    mock.addFixture({ match: { userMessage: /^hello from PostgreSQL$/ }, response: { content: "Stored in PostgreSQL." } });
    mock.addFixture({ match: { userMessage: /^hello from SQLite$/ }, response: { content: "Stored in SQLite." } });
    mock.addFixture({ match: { toolResultContains: '"succeeded"' }, response: { content: "The orders page is showing." } });
    mock.addFixture({
      match: { userMessage: /^show me the orders$/, hasToolResult: false },
      response: { toolCalls: [{ name: "showPage", arguments: JSON.stringify({ page: "orders" }) }] },
    });
    await mock.start();
  }, 900_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill();
    await mock.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("installs what the README says: each of its install lines is one of the guide's, which this suite ran", () => {
    const { readme, guide } = readmeAndGuidePackages();
    expect(readme.length).toBeGreaterThan(0);
    for (const packages of readme) expect(guide).toContainEqual(packages);
  });

  it("ships compiled JavaScript with types and source maps, React and the drivers as optional peers, and no TypeScript to run", async () => {
    const listing = (await run("tar", ["-tzf", tarball])).stdout.split("\n");
    const adapters = ["sqlite", "pg", "redis", "node", "fetch"].map((name) => `server/adapters/${name}`);
    for (const entry of ["server", "client", "react", "protocol", "testing", "server/genui", ...adapters]) {
      expect(listing).toContain(`package/dist/${entry}/index.js`);
      expect(listing).toContain(`package/dist/${entry}/index.d.ts`);
      expect(listing).toContain(`package/dist/${entry}/index.js.map`);
    }
    expect(listing).toContain("package/src/react/styles.css");
    expect(listing.filter((entry) => /\.test\.tsx?$/.test(entry))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(work, "server/node_modules/@tether-agent/tether/package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies)).not.toContain("react");
    expect(Object.keys(manifest.dependencies)).not.toContain("tsx");
    expect(manifest.peerDependencies).toMatchObject({ react: expect.any(String), "react-dom": expect.any(String) });
    const optionalPeers = ["react", "react-dom", "@a2ui/react", "streamdown", "better-sqlite3", "pg", "ioredis", "@hono/node-server"];
    for (const name of optionalPeers) {
      expect(Object.keys(manifest.dependencies)).not.toContain(name);
      expect(manifest.peerDependenciesMeta[name]).toEqual({ optional: true });
    }
    // One React in the app: the package brought none of its own.
    expect((await npm(join(work, "web"), ["ls", "react", "--all", "--parseable"])).trim().split("\n")).toHaveLength(1);
  });

  it("installs the server with one store adapter's driver and nothing of the others, nor React", () => {
    const others = ["pg", "ioredis", "react", "react-dom", "@a2ui/react", "streamdown"];
    expect(installed(join(work, "server"), ["better-sqlite3", ...others])).toEqual(["better-sqlite3"]);
    // No better-sqlite3, so no native build: the PostgreSQL server installs from JavaScript alone.
    expect(installed(join(work, "server-pg"), ["better-sqlite3", "pg", ...others.slice(1)])).toEqual(["pg"]);
    expect(installed(join(work, "web"), ["better-sqlite3", "pg", "ioredis"])).toEqual([]);
  });

  it("builds and typechecks a NodeNext server, and its `tether` command runs compiled", async () => {
    await npm(join(work, "server"), ["run", "typecheck"]);
    expect(await errorsInTetherDeclarations(join(work, "server"))).toEqual([]);
    await npm(join(work, "server"), ["run", "build"]);
    const help = await npm(join(work, "server"), ["exec", "--", "tether", "help"]);
    expect(help).toContain("tether serve <module>");
  });

  it("refuses in words, not with Node's stack trace, to serve a TypeScript module in an app without tsx", async () => {
    expect(installed(join(work, "server-pg"), ["tsx", "typescript"])).toEqual(["typescript"]);
    const refused = await npm(join(work, "server-pg"), ["exec", "--", "tether", "serve", "src/server.ts"]).catch((error: Error) => error.message);
    expect(refused).toContain("install tsx (npm install -D tsx) or serve the compiled JavaScript");
  });

  it("serves a run from the SQLite-only install, its store a file in the data folder", async () => {
    const dataDir = join(work, "data-sqlite");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: "0",
      OPENAI_BASE_URL: `${mock.url}/v1`,
      OPENAI_API_KEY: "mock",
      WEB_DIST: "../web/dist",
      DATA_DIR: dataDir,
    };
    delete env.TETHER_DATABASE_URL;
    delete env.TETHER_REDIS_URL;
    const started = startServer(join(work, "server"), env, () => undefined);
    try {
      const { status, body, said } = await postRun(await started.url, "sqlite-only-1", "hello from SQLite");
      expect(status).toBe(200);
      expect(said).toBe("Stored in SQLite.");
      expect(body).toContain('"type":"RUN_FINISHED"');
      expect(existsSync(join(dataDir, "tether.db"))).toBe(true);
    } finally {
      await stop(started.child);
    }
  });

  it("builds and typechecks a Vite + React app", async () => {
    await npm(join(work, "web"), ["run", "typecheck"]);
    expect(await errorsInTetherDeclarations(join(work, "web"))).toEqual([]);
    await npm(join(work, "web"), ["run", "build"]);
  });

  it("runs: the React app in Chromium renders the styled panel, and a browser tool call completes", async () => {
    const started = startServer(
      join(work, "server"),
      { ...process.env, PORT: "0", OPENAI_BASE_URL: `${mock.url}/v1`, OPENAI_API_KEY: "mock", WEB_DIST: "../web/dist", DATA_DIR: join(work, "data") },
      (chunk) => (serverLog += chunk),
    );
    server = started.child;
    serverUrl = await started.url;
    const earlier = mock.getRequests().length; // the other installs' runs asked the same mock

    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(serverUrl);
    await expect.poll(() => page.locator("h1").textContent()).toBe("Home");

    // The stylesheet from the package themes the panel: not the browser's defaults.
    const styled = await page.evaluate(() => {
      const panel = getComputedStyle(document.querySelector(".tether-panel")!);
      const box = getComputedStyle(document.querySelector(".tether-composer textarea")!);
      const send = getComputedStyle(document.querySelector(".tether-composer button[type=submit]")!);
      return { display: panel.display, border: panel.borderLeftStyle, radius: box.borderRadius, send: send.backgroundColor };
    });
    expect(styled).toEqual({ display: "flex", border: "solid", radius: "8px", send: "rgb(36, 87, 214)" });

    await page.getByRole("textbox").fill("show me the orders");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("h1").textContent(), { timeout: 20_000 }).toBe("Orders");
    await expect.poll(() => page.locator(".tether-message--assistant").last().textContent(), { timeout: 20_000 }).toContain("The orders page is showing.");
    // The outcome reached the model before it said so: its second request carries the tool's result.
    const requests = mock
      .getRequests()
      .slice(earlier)
      .filter((entry) => entry.path.endsWith("/chat/completions"));
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]!.body)).toContain('\\"status\\":\\"succeeded\\"');
    expect(errors).toEqual([]);
  });

  it("serves a run from the PostgreSQL-only install on the local PostgreSQL, and without a database URL says to install better-sqlite3", async (context) => {
    const postgres = await reachablePostgres();
    if ("skipped" in postgres) return context.skip(postgres.skipped);
    await npm(join(work, "server-pg"), ["run", "build"]);
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", OPENAI_BASE_URL: `${mock.url}/v1`, OPENAI_API_KEY: "mock", WEB_DIST: "../web/dist" };
    delete env.TETHER_DATABASE_URL;
    delete env.TETHER_REDIS_URL;

    // The default store is SQLite's, whose driver this install lacks: refused at start, saying what to install.
    const refused = startServer(join(work, "server-pg"), { ...env, DATA_DIR: join(work, "data-pg") }, () => undefined);
    await expect(refused.url).rejects.toThrow("needs the better-sqlite3 package, which is not installed: npm install better-sqlite3");

    const schemas = serverSchemas(postgres.url);
    const schema = schemas.make("installed");
    const started = startServer(join(work, "server-pg"), { ...env, TETHER_DATABASE_URL: postgres.url, TETHER_DATABASE_SCHEMA: schema }, () => undefined);
    try {
      const url = await started.url;
      const { status, body, said } = await postRun(url, "pg-only-1", "hello from PostgreSQL");
      expect(status).toBe(200);
      expect(said).toBe("Stored in PostgreSQL.");
      expect(body).toContain('"type":"RUN_FINISHED"');
      // The run is PostgreSQL's: in the schema this instance made.
      const client = new pg.Client({ connectionString: postgres.url });
      await client.connect();
      try {
        const { rows } = await client.query(`SELECT status FROM "${schema}".runs WHERE run_id = $1`, ["pg-only-1-r1"]);
        expect(rows).toEqual([{ status: "finished" }]);
      } finally {
        await client.end();
      }
    } finally {
      await stop(started.child);
      await schemas.dropAll();
    }
  });
});
