import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The concept a module belongs to: its folder under src/server, or its area of src. */
function conceptOf(file: string): string {
  const parts = relative(ROOT, file).split("/");
  return parts[1] === "server" && parts.length > 3 ? parts.slice(0, 3).join("/") : parts.slice(0, 2).join("/");
}

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test(-d)?\.tsx?$/.test(name) ? [path] : [];
  });
}

/**
 * dependency-cruiser (npm run lint) forbids module cycles and imports against
 * the layer order; this forbids cycles between folders, which it does not see:
 * one concept's folder must not need another that needs it back.
 */
describe("the library's folders", () => {
  it("do not import each other in a circle", () => {
    const edges = new Map<string, Set<string>>();
    for (const file of sources(join(ROOT, "src"))) {
      for (const [, target] of readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)) {
        const [from, to] = [conceptOf(file), conceptOf(normalize(join(dirname(file), target!)))];
        if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const cycles: string[] = [];
    const reaches = (from: string, goal: string, seen = new Set<string>()): boolean =>
      [...(edges.get(from) ?? [])].some((next) => next === goal || (!seen.has(next) && (seen.add(next), reaches(next, goal, seen))));
    for (const [from, targets] of edges) for (const to of targets) if (reaches(to, from)) cycles.push(`${from} → ${to}`);
    expect(cycles).toEqual([]);
  });
});
