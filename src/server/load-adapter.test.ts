import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { loadAdapter, type AdapterModules, type ImportAdapter } from "./load-adapter.ts";

// A folder with no node_modules above it: a module there that imports a package fails the way an app without it does.
const outside = mkdtempSync(join(tmpdir(), "tether-no-drivers-"));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

interface Outcome {
  code?: string;
  message: string;
  cause?: string;
}

/**
 * `loadAdapter(name)` in a Node process of its own, given an importer whose
 * adapter module imports `pkg` from that folder: Node's own resolution error
 * (the test runner's import() would resolve the name from the repo, where
 * every driver is installed).
 */
async function loadWithout(name: keyof AdapterModules, pkg: string): Promise<Outcome> {
  const adapter = join(outside, `needs-${pkg.replace(/\W/g, "-")}.mjs`);
  writeFileSync(adapter, `import ${JSON.stringify(pkg)};\nexport const loaded = true;\n`);
  const script = [
    `import { loadAdapter } from ${JSON.stringify(pathToFileURL(fileURLToPath(new URL("./load-adapter.ts", import.meta.url))).href)};`,
    `const error = await loadAdapter(${JSON.stringify(name)}, () => import(${JSON.stringify(pathToFileURL(adapter).href)})).then(() => ({ message: "loaded" }), (e) => e);`,
    `console.log(JSON.stringify({ code: error.code, message: error.message, cause: error.cause?.code }));`,
  ].join("\n");
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]);
  return JSON.parse(stdout) as Outcome;
}

describe("loadAdapter", () => {
  it.each([
    ["sqlite", "better-sqlite3"],
    ["pg", "pg"],
    ["redis", "ioredis"],
  ] as const)("says to install the driver when %s's (%s) is not installed", async (name, driver) => {
    const outcome = await loadWithout(name, driver);
    expect(outcome).toMatchObject({ code: "config_invalid", cause: "ERR_MODULE_NOT_FOUND" });
    expect(outcome.message).toMatch(new RegExp(`needs the ${driver} package, which is not installed: npm install ${driver}$`));
  });

  it("keeps any other failure as it was: another package missing, or the driver there but failing", async () => {
    expect(await loadWithout("sqlite", "not-a-tether-driver")).toMatchObject({
      code: "ERR_MODULE_NOT_FOUND",
      message: expect.stringContaining("not-a-tether-driver"),
    });
    const broken = new Error("Could not locate the bindings file.");
    await expect(loadAdapter("sqlite", (() => Promise.reject(broken)) as ImportAdapter)).rejects.toBe(broken);
  });

  it("loads each adapter through its entry file when its driver is installed", async () => {
    const loaded: { [Name in keyof AdapterModules]: string } = {
      sqlite: typeof (await loadAdapter("sqlite")).createSqliteRunStore,
      pg: typeof (await loadAdapter("pg")).createPgRunStore,
      redis: typeof (await loadAdapter("redis")).createRedisHub,
    };
    expect(loaded).toEqual({ sqlite: "function", pg: "function", redis: "function" });
  });
});
