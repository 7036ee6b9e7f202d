import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { readBuildStamp } from "./build-stamp.ts";
import { fingerprintSources } from "./fingerprint.ts";
import type { WebApp } from "./web-app.ts";

/**
 * Whether an app's bundle can be served as it is: `missing` (never built, or
 * the last build failed), `changed` (built from other sources) or `current`.
 */
export interface BundleStatus {
  state: "missing" | "changed" | "current";
  /** The fingerprint of the sources now: the stamp a build started now should carry. */
  fingerprint: string;
}

export function bundleStatus(app: WebApp): BundleStatus {
  const fingerprint = fingerprintWebApp(app);
  // A stamp without the page it stamps (a half-deleted dist) is no bundle.
  const stamp = existsSync(join(app.outDir, "index.html")) ? readBuildStamp(app.outDir) : undefined;
  return { state: !stamp ? "missing" : stamp.fingerprint === fingerprint ? "current" : "changed", fingerprint };
}

export function fingerprintWebApp(app: WebApp): string {
  return fingerprintSources(dirname(app.viteConfig), app.sources);
}
