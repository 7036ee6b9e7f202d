import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * `@google/adk` is an optional peer: only `@tether-agent/tether/adk` may load it. Checked on the
 * source (every import of it) and at run time (each entry point loaded in a process where the
 * package cannot be found).
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const run = promisify(execFile);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Runs `code` as an ES module at the repository's root, the source entry points resolved, with `@google/adk` missing. */
async function withoutAdk(code: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "tether-no-adk-"));
  const hooks = join(dir, "hooks.mjs");
  writeFileSync(
    hooks,
    `export async function resolve(specifier, context, next) {
  if (specifier === "@google/adk" || specifier.startsWith("@google/adk/")) {
    throw Object.assign(new Error("Cannot find package '@google/adk' imported from " + context.parentURL), { code: "ERR_MODULE_NOT_FOUND" });
  }
  return next(specifier, context);
}
`,
  );
  const register = join(dir, "register.mjs");
  writeFileSync(register, `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const { stdout } = await run(process.execPath, ["--conditions=tether-source", "--import", "tsx", "--import", register, "--input-type=module", "-e", code], {
    cwd: ROOT,
    timeout: 60_000,
  });
  return stdout;
}

describe("@google/adk stays behind the /adk entry point", () => {
  it("is imported by no source file outside src/server/adapters/adk", () => {
    const importers = sourceFiles(join(ROOT, "src"))
      .filter((file) => /from\s+["']@google\/adk(\/[^"']*)?["']|import\(\s*["']@google\/adk/.test(readFileSync(file, "utf8")))
      .map((file) => relative(ROOT, file));
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((file) => !file.startsWith("src/server/adapters/adk/"))).toEqual([]);
  });

  it("every other entry point loads without @google/adk; /adk fails naming it", { timeout: 90_000 }, async () => {
    const entries = ["protocol", "server", "store", "genui", "sqlite", "node", "fetch", "client", "testing", "internal"];
    const stdout = await withoutAdk(`
const loaded = [];
for (const entry of ${JSON.stringify(entries)}) { await import("@tether-agent/tether/" + entry); loaded.push(entry); }
let adk = "loaded";
try { await import("@tether-agent/tether/adk"); } catch (error) { adk = String(error.message); }
console.log(JSON.stringify({ loaded, adk }));
`);
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as { loaded: string[]; adk: string };
    expect(result.loaded).toEqual(entries);
    expect(result.adk).toContain("Cannot find package '@google/adk'");
  });
});
