import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "./contenders/tether-variant.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The server as it was at a git commit, loaded beside the current one: its
 * src/ extracted with `git archive` into a temporary folder that shares this
 * checkout's node_modules, and imported through tsx. Undefined, with the
 * reason, when git cannot give it (no git, a shallow clone without the commit).
 */
export async function loadBuildAt(ref: string): Promise<{ build: ServerBuild; remove(): void } | { missing: string }> {
  const dir = mkdtempSync(join(tmpdir(), "tether-bench-ref-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const tar = join(dir, "src.tar");
    execFileSync("git", ["archive", "--format=tar", "-o", tar, ref, "src", "package.json", "tsconfig.json"], { cwd: ROOT, stdio: "pipe" });
    execFileSync("tar", ["-xf", tar], { cwd: dir, stdio: "pipe" });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    const build = (await import(pathToFileURL(join(dir, "src/server/index.ts")).href)) as ServerBuild;
    return { build, remove };
  } catch (error) {
    remove();
    return { missing: error instanceof Error ? error.message.split("\n")[0]! : String(error) };
  }
}
