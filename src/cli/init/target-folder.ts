import { lstat, readdir, readlink, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { TetherError } from "../../protocol/index.ts";

/**
 * What a folder may already hold and still count as empty, as create-vite counts it: a `git init`
 * made first, and what Finder and editors leave behind.
 */
export const IGNORED_ENTRIES: ReadonlySet<string> = new Set([".git", ".DS_Store", ".idea", ".vscode"]);

/** Where the app goes: a folder to make, or one that is there and empty. */
export type TargetFolder = "missing" | "empty";

/**
 * Looks at where the app goes, and refuses, saying why, anything but a new path or an empty folder:
 * a folder with files, a file (at the path or above it), a symbolic link to nothing.
 */
export async function inspectTarget(target: string): Promise<TargetFolder> {
  let entries: string[];
  try {
    entries = await readdir(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      await refuseDanglingLink(target);
      return "missing";
    }
    if (code === "ENOTDIR") throw await notADirectory(target);
    throw error;
  }
  const kept = entries.filter((entry) => !IGNORED_ENTRIES.has(entry));
  if (kept.length > 0)
    throw new TetherError(
      "config_invalid",
      `${target} is not empty (${kept.slice(0, 3).join(", ")}${kept.length > 3 ? ", …" : ""}): name a new folder, or an empty one.`,
    );
  return "empty";
}

/** A symbolic link whose target is not there reads as missing, but no folder can be made at it. */
async function refuseDanglingLink(target: string): Promise<void> {
  const link = await lstat(target).catch(() => undefined);
  if (!link?.isSymbolicLink()) return;
  throw new TetherError(
    "config_invalid",
    `${target} is a symbolic link to ${await readlink(target)}, which is not there: make that folder, or name another one.`,
  );
}

/** The path, or the nearest folder above it that is there, is a file: say which. */
async function notADirectory(target: string): Promise<TetherError> {
  let path = target;
  let found = await stat(path).catch(() => undefined);
  while (!found && dirname(path) !== path) {
    path = dirname(path);
    found = await stat(path).catch(() => undefined);
  }
  const where = path === target ? `${target} is a file` : `${path} is a file, so ${target} cannot be made inside it`;
  return new TetherError("config_invalid", `${where}: name a new folder, or an empty one.`);
}
