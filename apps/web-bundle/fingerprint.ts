import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** Folders that are build output or installed packages, never a bundle's sources. */
const SKIPPED_FOLDERS = new Set(["dist", "node_modules", ".git"]);
/** Tests sit beside the code but never reach a bundle; editing one should not cost a rebuild. */
const TEST_FILE = /\.test(-d)?\.tsx?$/;

/**
 * A hash of the names and contents of every file under `sources` (files or
 * folders), with paths taken relative to `base` so that moving the checkout
 * keeps it. Contents, not modification times: a `git checkout` that leaves a
 * file as it was does not make its bundle stale.
 */
export function fingerprintSources(base: string, sources: string[]): string {
  const files = sources.flatMap((source) => listFiles(source)).map((file) => ({ file, name: relative(base, file).split(sep).join("/") }));
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const hash = createHash("sha256");
  for (const { file, name } of files) {
    const content = readFileSync(file);
    // Length-prefixed, so no two different file sets hash the same bytes.
    hash.update(`${name}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest("hex");
}

function listFiles(path: string): string[] {
  // A source that does not exist yet (an app's optional public/ folder) adds no files.
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return TEST_FILE.test(path) ? [] : [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() && SKIPPED_FOLDERS.has(entry.name) ? [] : listFiles(join(path, entry.name)),
  );
}
