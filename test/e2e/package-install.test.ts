import { LLMock } from "@copilotkit/aimock";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { npm } from "../helpers/npm.ts";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./browser.ts";

/**
 * Tether as another app gets it: the packed tarball installed from the npm
 * registry's side of things (no path aliases, no workspace, outside the repo)
 * into a fresh NodeNext TypeScript server and a fresh Vite + React app, both
 * built and typechecked, then run with a real OpenAI-wire model (aimock).
 */
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/installed-app", import.meta.url));
const run = promisify(execFile);

/** Errors TypeScript finds inside the installed package's declaration files, checked even where the app skips library checks. */
async function errorsInTetherDeclarations(cwd: string): Promise<string[]> {
  const output = await npm(cwd, ["exec", "--", "tsc", "--noEmit", "--skipLibCheck", "false"]).catch((error: Error) => error.message);
  return output.split("\n").filter((line) => line.includes("node_modules/@tether-agent/tether/"));
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
    for (const app of ["server", "web"]) {
      cpSync(join(FIXTURES, app), join(work, app), { recursive: true });
      const manifest = join(work, app, "package.json");
      writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"TARBALL"', JSON.stringify(`file:${tarball}`)));
    }
    // One after the other: both may compile better-sqlite3, and the machine has two cores. No --prefer-offline:
    // resolving afresh from a cache, a package published since could ask for a version the cached lists lack.
    for (const app of ["server", "web"]) await npm(join(work, app), ["install", "--no-audit", "--no-fund"]);

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

  it("ships compiled JavaScript with types and source maps, React as a peer, and no TypeScript to run", async () => {
    const listing = (await run("tar", ["-tzf", tarball])).stdout.split("\n");
    for (const entry of ["server", "client", "react", "protocol", "testing", "server/genui"]) {
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
    // One React in the app: the package brought none of its own.
    expect((await npm(join(work, "web"), ["ls", "react", "--all", "--parseable"])).trim().split("\n")).toHaveLength(1);
  });

  it("builds and typechecks a NodeNext server, and its `tether` command runs compiled", async () => {
    await npm(join(work, "server"), ["run", "typecheck"]);
    expect(await errorsInTetherDeclarations(join(work, "server"))).toEqual([]);
    await npm(join(work, "server"), ["run", "build"]);
    const help = await npm(join(work, "server"), ["exec", "--", "tether", "help"]);
    expect(help).toContain("tether serve <module>");
    // Without tsx in the app, serving a TypeScript module is refused in words, not with Node's stack trace.
    const refused = await npm(join(work, "server"), ["exec", "--", "tether", "serve", "src/server.ts"]).catch((error: Error) => error.message);
    expect(refused).toContain("install tsx (npm install -D tsx) or serve the compiled JavaScript");
  });

  it("builds and typechecks a Vite + React app", async () => {
    await npm(join(work, "web"), ["run", "typecheck"]);
    expect(await errorsInTetherDeclarations(join(work, "web"))).toEqual([]);
    await npm(join(work, "web"), ["run", "build"]);
  });

  it("runs: the React app in Chromium renders the styled panel, and a browser tool call completes", async () => {
    server = spawn(process.execPath, ["dist/server.js"], {
      cwd: join(work, "server"),
      env: { ...process.env, PORT: "0", OPENAI_BASE_URL: `${mock.url}/v1`, OPENAI_API_KEY: "mock", WEB_DIST: "../web/dist", DATA_DIR: join(work, "data") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    serverUrl = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        serverLog += chunk.toString();
        const found = /listening on (\S+)/.exec(serverLog);
        if (found) resolve(found[1]!);
      };
      server!.stdout!.on("data", read);
      server!.stderr!.on("data", read);
      server!.once("exit", (code) => reject(new Error(`the installed server exited (${code}):\n${serverLog}`)));
    });

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
    const requests = mock.getRequests().filter((entry) => entry.path.endsWith("/chat/completions"));
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]!.body)).toContain('\\"status\\":\\"succeeded\\"');
    expect(errors).toEqual([]);
  });
});
