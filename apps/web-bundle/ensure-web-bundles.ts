import { relative } from "node:path";
import { buildWebApp } from "./build-web-app.ts";
import { bundleStatus } from "./bundle-status.ts";
import type { WebApp } from "./web-app.ts";

export interface EnsureWebBundlesOptions {
  /** Where the one line per app goes: current, or why it builds. */
  log: (line: string) => void;
  /** Tests build with a stand-in instead of Vite. */
  build?: (app: WebApp, fingerprint: string) => Promise<void>;
}

/**
 * Builds each app whose bundle is missing or was built from other sources,
 * and leaves current ones alone, saying which it did for each.
 */
export async function ensureWebBundles(apps: readonly WebApp[], options: EnsureWebBundlesOptions): Promise<void> {
  const build = options.build ?? buildWebApp;
  for (const app of apps) {
    const status = bundleStatus(app);
    const where = relative(process.cwd(), app.outDir);
    if (status.state === "current") {
      options.log(`${app.name} web bundle is current (${where})`);
      continue;
    }
    const why = status.state === "missing" ? `${app.name} web bundle is missing` : `${app.name} web sources changed since the last build`;
    options.log(`${why}: building ${where} (this takes a while; later starts reuse it)`);
    const started = Date.now();
    await build(app, status.fingerprint);
    options.log(`${app.name} web bundle built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
