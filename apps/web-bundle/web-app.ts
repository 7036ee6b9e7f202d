import { join } from "node:path";

/**
 * A web app of the demo, as far as building it goes: its Vite config, the
 * folder the build writes, and every source whose change makes that build stale.
 */
export interface WebApp {
  /** Short name used in messages (`workdesk`). */
  name: string;
  /** Absolute path of the app's vite.config.ts. */
  viteConfig: string;
  /** Absolute path of the folder the build writes (the config's `build.outDir`). */
  outDir: string;
  /** Absolute paths of the files and folders the bundle is built from. */
  sources: string[];
}

/**
 * Describes a web app laid out as Vite expects (`index.html`, `vite.config.ts`
 * and `src/` in `root`, building to `root/dist`) that bundles the given shared
 * sources besides its own folder.
 *
 * @example
 * webApp("recipes", "/repo/apps/recipes/web", ["/repo/src/react", "/repo/package-lock.json"])
 */
export function webApp(name: string, root: string, sharedSources: string[]): WebApp {
  return { name, viteConfig: join(root, "vite.config.ts"), outDir: join(root, "dist"), sources: [root, ...sharedSources] };
}
