import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";

/**
 * V8's precise coverage of this process, by function call counts. Started
 * before anything it should see is imported; each `take()` returns the files
 * whose functions ran since the last one (taking resets the counts), so a
 * window between two takes holds what that window executed, loading included.
 */
export async function startCoverage(root: string): Promise<{ take(): Promise<string[]> }> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  return {
    async take() {
      const { result } = await session.post("Profiler.takePreciseCoverage");
      const files = new Set<string>();
      for (const script of result) {
        if (!script.url.startsWith("file:")) continue;
        if (!script.functions.some((fn) => fn.ranges.some((range) => range.count > 0))) continue;
        const path = fileURLToPath(script.url);
        if (path.startsWith(root) && !path.includes("/node_modules/")) files.add(path.slice(root.length + 1));
      }
      return [...files];
    },
  };
}

/** The library's and the apps' own files: no tests, no scripts, no benchmarks. */
export function isLibraryOrApp(path: string): boolean {
  return /^(src|apps)\//.test(path) && !/\.test(-d)?\.tsx?$/.test(path);
}
