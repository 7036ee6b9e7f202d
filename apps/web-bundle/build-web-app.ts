import { writeBuildStamp } from "./build-stamp.ts";
import type { WebApp } from "./web-app.ts";

/**
 * Builds an app's bundle with Vite and stamps it with `fingerprint`, which the
 * caller takes before the build: a source edited while Vite runs then makes
 * the next start build again instead of passing for built.
 */
export async function buildWebApp(app: WebApp, fingerprint: string): Promise<void> {
  // Loaded only when a build is due: a start with current bundles never pays for Vite.
  const { build } = await import("vite");
  // Node's own loader: the config imports the library's TypeScript sources by package name, which
  // resolve to src/ only under the `tether-source` condition this process runs with (npm run build).
  // Vite bundles React's development build when NODE_ENV says so (a test runner's `test`, a shell's
  // `development`), and the stamp would then pass it off as current: the pages are always production's.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ configFile: app.viteConfig, configLoader: "native" });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  writeBuildStamp(app.outDir, { fingerprint });
}
