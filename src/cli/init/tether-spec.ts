import { existsSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { TetherError } from "../../protocol/index.ts";

/** A `--tether` that names a file rather than a version: a path, or a tarball's name. */
const LOOKS_LIKE_A_PATH = /^(file:|\.|~)|[/\\]|\.(tgz|tar\.gz)$/;

/**
 * The app's `@tether-agent/tether` dependency. Absent, `^<version>` of this Tether. A path that exists
 * (the tarball `npm pack` made, or a checkout) becomes a `file:` spec relative to the new app, so the
 * app installs it wherever it is run from; a version, range or tag is kept as it is.
 */
export function tetherSpec(given: string | undefined, appDir: string, ownVersion: string, cwd = process.cwd()): string {
  if (given === undefined) return `^${ownVersion}`;
  if (given.trim() === "") throw new TetherError("config_invalid", "--tether needs a value: a version (0.1.0) or the path of a tarball from npm pack.");
  const path = resolve(cwd, given.replace(/^file:/, ""));
  if (existsSync(path)) return `file:${relative(appDir, path).split(sep).join("/")}`;
  if (LOOKS_LIKE_A_PATH.test(given))
    throw new TetherError("config_invalid", `There is no tarball at ${path}: --tether takes the path of the .tgz npm pack made, or a version.`);
  return given;
}
