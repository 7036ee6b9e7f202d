import { buildWebApp } from "./build-web-app.ts";
import { bundleStatus, type BundleStatus } from "./bundle-status.ts";
import type { WebApp } from "./web-app.ts";

export interface EnsureWebBundlesOptions {
  /** Where its lines go: one when every bundle is current, else one before the builds and one after. */
  log: (line: string) => void;
  /** Tests build with a stand-in instead of Vite. */
  build?: (app: WebApp, fingerprint: string) => Promise<void>;
}

/**
 * Builds each app whose bundle is missing or was built from other sources,
 * and leaves current ones alone. It says which it builds and why before it
 * starts, and how long they took once done: a first start is quiet for the
 * build's length, not for the length of a log.
 */
export async function ensureWebBundles(apps: readonly WebApp[], options: EnsureWebBundlesOptions): Promise<void> {
  const build = options.build ?? buildWebApp;
  const stale = apps.map((app) => ({ app, status: bundleStatus(app) })).filter(({ status }) => status.state !== "current");
  if (stale.length === 0) {
    options.log(`Web pages are current (${names(apps)}): reusing them`);
    return;
  }
  options.log(`Building the web pages (${why(stale)}), usually under a minute; later starts reuse them…`);
  const started = Date.now();
  for (const { app, status } of stale) await build(app, status.fingerprint);
  options.log(`Web pages built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Which apps build and why: `workdesk, runs: not built yet; recipes: sources changed since the last build`. */
function why(stale: Array<{ app: WebApp; status: BundleStatus }>): string {
  const missing = stale.filter(({ status }) => status.state === "missing").map(({ app }) => app);
  const changed = stale.filter(({ status }) => status.state === "changed").map(({ app }) => app);
  return [
    ...(missing.length > 0 ? [`${names(missing)}: not built yet`] : []),
    ...(changed.length > 0 ? [`${names(changed)}: sources changed since the last build`] : []),
  ].join("; ");
}

const names = (apps: readonly WebApp[]) => apps.map((app) => app.name).join(", ");
