import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeBuildStamp } from "./build-stamp.ts";
import { ensureWebBundles } from "./ensure-web-bundles.ts";
import { webApp, type WebApp } from "./web-app.ts";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "tether-web-bundle-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

function write(path: string, content: string) {
  mkdirSync(join(folder, path, ".."), { recursive: true });
  writeFileSync(join(folder, path), content);
}

/** An app laid out like apps/workdesk/web, bundling a shared library folder and a lockfile. */
function fixtureApp(name = "desk"): WebApp {
  write(`${name}/index.html`, "<div id=root></div>");
  write(`${name}/vite.config.ts`, "export default {}");
  write(`${name}/src/main.tsx`, "render(<App />)");
  write(`${name}/src/main.test.ts`, "it('renders')");
  write("lib/session.ts", "export const session = 1");
  write("package-lock.json", "{}");
  return webApp(name, join(folder, name), [join(folder, "lib"), join(folder, "package-lock.json")]);
}

/** Stands in for Vite: empties the output folder as Vite does, writes a page, stamps it; counts the builds. */
function fakeBuilder() {
  const built: string[] = [];
  const build = async (app: WebApp, fingerprint: string) => {
    rmSync(app.outDir, { recursive: true, force: true });
    mkdirSync(app.outDir, { recursive: true });
    writeFileSync(join(app.outDir, "index.html"), "<built>");
    writeBuildStamp(app.outDir, { fingerprint });
    built.push(app.name);
  };
  return { build, built };
}

async function ensure(apps: WebApp[], build: (app: WebApp, fingerprint: string) => Promise<void>) {
  const lines: string[] = [];
  await ensureWebBundles(apps, { log: (line) => lines.push(line), build });
  return lines;
}

describe("ensureWebBundles", () => {
  it("builds a missing bundle, saying it is not built yet, then how long it took", async () => {
    const app = fixtureApp();
    const builder = fakeBuilder();
    const lines = await ensure([app], builder.build);
    expect(builder.built).toEqual(["desk"]);
    expect(lines).toEqual([
      "Building the web pages (desk: not built yet), usually under a minute; later starts reuse them…",
      expect.stringMatching(/^Web pages built in \d+\.\d s$/),
    ]);
  });

  it("says one line before its builds and one after, however many apps it builds and why", async () => {
    const desk = fixtureApp("desk");
    const recipes = fixtureApp("recipes");
    const runs = fixtureApp("runs");
    const builder = fakeBuilder();
    await ensure([recipes], builder.build);
    write("recipes/src/main.tsx", "render(<Recipes />)");
    const lines = await ensure([desk, recipes, runs], builder.build);
    expect(builder.built).toEqual(["recipes", "desk", "recipes", "runs"]);
    expect(lines).toEqual([
      "Building the web pages (desk, runs: not built yet; recipes: sources changed since the last build), usually under a minute; later starts reuse them…",
      expect.stringMatching(/^Web pages built in /),
    ]);
  });

  it("builds again when the stamp survived but the page did not (a half-deleted dist)", async () => {
    const app = fixtureApp();
    const builder = fakeBuilder();
    await ensure([app], builder.build);
    rmSync(join(app.outDir, "index.html"));
    const lines = await ensure([app], builder.build);
    expect(builder.built).toEqual(["desk", "desk"]);
    expect(lines[0]).toMatch(/\(desk: not built yet\)/);
  });

  it("leaves a current bundle alone, saying so in one line", async () => {
    const app = fixtureApp();
    const builder = fakeBuilder();
    await ensure([app], builder.build);
    const builtAt = statSync(join(app.outDir, "index.html")).mtimeMs;
    const lines = await ensure([app], builder.build);
    expect(builder.built).toEqual(["desk"]);
    expect(lines).toEqual(["Web pages are current (desk): reusing them"]);
    expect(statSync(join(app.outDir, "index.html")).mtimeMs).toBe(builtAt);
  });

  it.each([
    ["an app source is edited", () => write("desk/src/main.tsx", "render(<Other />)")],
    ["an app source is added", () => write("desk/src/menu.tsx", "export {}")],
    ["an app source is removed", () => rmSync(join(folder, "desk/src/main.tsx"))],
    ["the Vite config is edited", () => write("desk/vite.config.ts", "export default { base: '/x/' }")],
    ["a library source is edited", () => write("lib/session.ts", "export const session = 2")],
    ["the lockfile changes", () => write("package-lock.json", '{"lockfileVersion":3}')],
  ])("rebuilds when %s, saying the sources changed", async (_change, change) => {
    const app = fixtureApp();
    const builder = fakeBuilder();
    await ensure([app], builder.build);
    change();
    const lines = await ensure([app], builder.build);
    expect(builder.built).toEqual(["desk", "desk"]);
    expect(lines[0]).toMatch(/^Building the web pages \(desk: sources changed since the last build\)/);
  });

  it.each([
    ["a test beside the sources is edited", () => write("desk/src/main.test.ts", "it('renders twice')")],
    [
      "a source is touched without a change, as a checkout does",
      () => utimesSync(join(folder, "desk/src/main.tsx"), new Date(), new Date(Date.now() + 60_000)),
    ],
  ])("does not rebuild when %s", async (_change, change) => {
    const app = fixtureApp();
    const builder = fakeBuilder();
    await ensure([app], builder.build);
    change();
    await ensure([app], builder.build);
    expect(builder.built).toEqual(["desk"]);
  });

  it("builds again after a build that failed", async () => {
    const app = fixtureApp();
    const failing = async (failed: WebApp) => {
      rmSync(failed.outDir, { recursive: true, force: true });
      mkdirSync(failed.outDir, { recursive: true });
      throw new Error("Could not resolve ./menu.tsx");
    };
    await expect(ensure([app], failing)).rejects.toThrow("Could not resolve ./menu.tsx");
    const builder = fakeBuilder();
    const lines = await ensure([app], builder.build);
    expect(builder.built).toEqual(["desk"]);
    expect(lines[0]).toMatch(/\(desk: not built yet\)/);
  });

  it("builds again when a source was edited while the last build ran", async () => {
    const app = fixtureApp();
    const builder = fakeBuilder();
    await ensure([app], async (building, fingerprint) => {
      await builder.build(building, fingerprint);
      write("desk/src/main.tsx", "render(<Edited />)");
    });
    await ensure([app], builder.build);
    expect(builder.built).toEqual(["desk", "desk"]);
  });

  it("checks each app on its own and builds only the stale ones", async () => {
    const desk = fixtureApp("desk");
    const recipes = fixtureApp("recipes");
    const builder = fakeBuilder();
    await ensure([desk, recipes], builder.build);
    write("recipes/src/main.tsx", "render(<Recipes />)");
    const lines = await ensure([desk, recipes], builder.build);
    expect(builder.built).toEqual(["desk", "recipes", "recipes"]);
    expect(lines[0]).toMatch(/^Building the web pages \(recipes: sources changed since the last build\)/);
  });
});
