import { readFileSync } from "node:fs";

/** What `tether init` reads of Tether's own package.json. */
export interface TetherPackage {
  version: string;
  peerDependencies: Record<string, string>;
}

/**
 * Tether's own package.json: three folders up from this file, in a checkout (src/cli/init/) as in
 * the installed package (dist/cli/init/).
 */
export function readTetherPackage(): TetherPackage {
  return JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as TetherPackage;
}
