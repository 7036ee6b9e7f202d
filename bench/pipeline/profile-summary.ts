/** The parts of a V8 CPU profile (`Profiler.stop`) the summary reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

const root = new URL("../../", import.meta.url).href;

/** `src/server/hub/hub.ts`, `hono`, `node:internal/...`, or a V8 pseudo-frame like `(garbage collector)`. */
function place(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  const packageAt = url.lastIndexOf("/node_modules/");
  if (packageAt >= 0) {
    const [first, second] = url.slice(packageAt + "/node_modules/".length).split("/");
    return first!.startsWith("@") ? `${first}/${second}` : first!;
  }
  if (url.startsWith(root)) return url.slice(root.length);
  return url.startsWith("node:") ? "node internals" : url;
}

function rank(totals: Map<string, number>, all: number, top: number): string {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / all).toFixed(1).padStart(5)}%  ${key}`)
    .join("\n");
}

/**
 * Self time by source file (where the CPU actually was) and inclusive time by
 * function of ours (src/ and bench/): what each step of the pipeline costs,
 * everything it calls included.
 */
export function summarizeProfile(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const all = [...self.values()].reduce((sum, us) => sum + us, 0);

  const selfByPlace = new Map<string, number>();
  const inclusiveByFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    let where = place(node.callFrame.url, node.callFrame.functionName);
    if (where === "(native)") {
      // A builtin or addon call (JSON.stringify, TextEncoder, better-sqlite3's run, a socket write): charge its JS caller.
      let at = parent.get(id);
      while (at !== undefined && !byId.get(at)!.callFrame.url) at = parent.get(at);
      const caller = at === undefined ? undefined : byId.get(at)!.callFrame;
      where = caller ? `${place(caller.url, caller.functionName)} → native ${node.callFrame.functionName || "(anonymous)"}` : "(native)";
    }
    selfByPlace.set(where, (selfByPlace.get(where) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!frame.url.startsWith(root) || frame.url.includes("/node_modules/")) continue;
      const key = `${frame.functionName || "(anonymous)"}  ${place(frame.url, "")}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusiveByFunction.set(key, (inclusiveByFunction.get(key) ?? 0) + us);
    }
  }
  return [
    `sampled ${(all / 1000).toFixed(0)} ms on the main thread`,
    "",
    "self time by place (a native callee is shown under its JS caller):",
    rank(selfByPlace, all, top),
    "",
    "inclusive time by function of ours (src/, bench/):",
    rank(inclusiveByFunction, all, top),
  ].join("\n");
}
