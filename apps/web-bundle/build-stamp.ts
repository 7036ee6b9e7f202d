import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The file a build leaves in its output folder, naming the sources it was built
 * from. Vite empties the folder when a build starts, so a failed build leaves
 * no stamp and the next start builds again.
 */
export const BUILD_STAMP_FILE = ".build-stamp.json";

export interface BuildStamp {
  /** `fingerprintSources` of the app's sources, taken before the build read them. */
  fingerprint: string;
}

/** The stamp in `outDir`, or undefined when there is none or it is unreadable. */
export function readBuildStamp(outDir: string): BuildStamp | undefined {
  try {
    const stamp: unknown = JSON.parse(readFileSync(join(outDir, BUILD_STAMP_FILE), "utf8"));
    return typeof stamp === "object" && stamp !== null && "fingerprint" in stamp && typeof stamp.fingerprint === "string"
      ? { fingerprint: stamp.fingerprint }
      : undefined;
  } catch {
    return undefined;
  }
}

export function writeBuildStamp(outDir: string, stamp: BuildStamp): void {
  writeFileSync(join(outDir, BUILD_STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
}
