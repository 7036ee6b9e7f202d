import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { TetherError } from "../../protocol/index.ts";

/** A `--tether` that names a file rather than a version: a path, or a tarball's name (but `~1.2.0` is a range). */
const LOOKS_LIKE_A_PATH = /^(file:|\.|~(?=$|[/\\]))|[/\\]|\.(tgz|tar\.gz)$/;

/** A spec npm resolves by itself: a URL, `git+https:`, `github:`, an `npm:` alias … (two letters at least: not `C:`). */
const NPM_PROTOCOL = /^(?!file:)[a-z][a-z0-9+.-]+:/i;

const TARBALL = /\.(tgz|tar\.gz)$/;

const TAKES = "--tether takes a version, the path of the .tgz npm pack made or of a Tether checkout, or a URL or git spec npm installs.";

/** The app's `@tether-agent/tether` dependency, and where npm will fetch it from. */
export interface TetherSpec {
  /** As written in the app's package.json. */
  spec: string;
  /** `registry` for a version, range, tag or `npm:` alias; `file` for a path; `elsewhere` for a URL or git spec. */
  from: "registry" | "file" | "elsewhere";
}

/**
 * The app's `@tether-agent/tether` dependency. Absent, `^<version>` of this Tether. A tarball (.tgz)
 * or a Tether checkout becomes a `file:` spec relative to the new app, so the app installs it
 * wherever it is run from; a URL, git or `npm:` spec, and a version, range or tag, are kept as they
 * are. A path to anything else (a missing file, another folder) is refused.
 */
export function tetherSpec(given: string | undefined, appDir: string, ownVersion: string, cwd = process.cwd()): TetherSpec {
  if (given === undefined) return { spec: `^${ownVersion}`, from: "registry" };
  if (given.trim() === "") throw new TetherError("config_invalid", `--tether needs a value. ${TAKES}`);
  if (NPM_PROTOCOL.test(given)) return { spec: given, from: given.startsWith("npm:") ? "registry" : "elsewhere" };
  // The shell expands ~ only at a word's start: not in --tether=~/…
  const path = resolve(cwd, given.replace(/^file:/, "").replace(/^~(?=$|[/\\])/, homedir()));
  const asFile = { spec: `file:${relative(appDir, path).split(sep).join("/")}`, from: "file" } as const;
  const found = statSync(path, { throwIfNoEntry: false });
  const pathLike = LOOKS_LIKE_A_PATH.test(given);
  if (found?.isDirectory() && namesTether(path)) return asFile;
  if (found?.isFile() && TARBALL.test(path)) return asFile;
  // A tag that happens to name something here (`--tether next`, with a folder next/) is still a tag.
  if (!pathLike) return { spec: given, from: "registry" };
  if (!found) throw new TetherError("config_invalid", `There is no tarball at ${path}: ${TAKES}`);
  throw new TetherError(
    "config_invalid",
    found.isDirectory()
      ? `${path} is a folder, but not Tether: its package.json does not name @tether-agent/tether. ${TAKES}`
      : `${path} is not a tarball (.tgz). ${TAKES}`,
  );
}

/** Whether a folder holds Tether: its package.json names `@tether-agent/tether`. */
function namesTether(folder: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name?: unknown }).name === "@tether-agent/tether";
  } catch {
    return false;
  }
}
