import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { TetherError } from "../../protocol/index.ts";

/**
 * Writes a new app's files into `target`, all or nothing: into a temporary folder beside it, which
 * then takes its place. A folder that is there already must be empty; it is kept (a shell may be
 * standing in it) and the files move into it. Folders above it are made as needed.
 */
export function writeApp(target: string, files: Array<{ path: string; content: string | Buffer }>): void {
  const existing = entriesOf(target);
  if (existing && existing.length > 0)
    throw new TetherError(
      "config_invalid",
      `${target} is not empty (${existing.slice(0, 3).join(", ")}${existing.length > 3 ? ", …" : ""}): name a new folder, or an empty one.`,
    );
  const madeParent = mkdirSync(dirname(target), { recursive: true });
  const staging = mkdtempSync(join(dirname(target), `.${basename(target)}-`));
  try {
    for (const file of files) {
      mkdirSync(dirname(join(staging, file.path)), { recursive: true });
      writeFileSync(join(staging, file.path), file.content);
    }
    if (existing) moveEntries(staging, target);
    else renameSync(staging, target);
  } catch (error) {
    if (madeParent) rmSync(madeParent, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** A folder's entries; undefined when nothing is there. A file at the path is refused. */
function entriesOf(path: string): string[] | undefined {
  try {
    return readdirSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ENOTDIR") throw new TetherError("config_invalid", `${path} is a file: name a new folder, or an empty one.`);
    throw error;
  }
}

/** Moves the staged files into the empty folder that was there; on a failure, takes back those already moved. */
function moveEntries(staging: string, target: string): void {
  const moved: string[] = [];
  try {
    for (const entry of readdirSync(staging)) {
      renameSync(join(staging, entry), join(target, entry));
      moved.push(entry);
    }
  } catch (error) {
    for (const entry of moved) rmSync(join(target, entry), { recursive: true, force: true });
    throw error;
  }
}
