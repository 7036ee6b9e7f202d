/**
 * Where the client benchmark's time goes: CPU-profiles the reference and the
 * Tether contender (same workload as bench/client, in this process, one after
 * the other, each after its own warm-up) and prints self time per place —
 * our functions by file and name, packages by name, GC and idle as V8 shows
 * them — side by side, with Tether minus reference per round.
 *
 *   npx tsx bench/client/profile.ts
 *   BENCH_MB=4 PROFILE_ROUNDS=5 PROFILE_DIR=/tmp npx tsx bench/client/profile.ts   # also writes .cpuprofile files
 *   PROFILE_DETAIL=@ag-ui/client,rxjs npx tsx bench/client/profile.ts             # those packages function by function
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { CpuProfile } from "../pipeline/profile-summary.ts";
import { reference, tether, type Contender } from "./contenders.ts";
import { buildWorkload } from "./workload.ts";

const MB = Number(process.env.BENCH_MB ?? 10);
const ROUNDS = Number(process.env.PROFILE_ROUNDS ?? 3);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CHUNK = Math.round(Number(process.env.BENCH_CHUNK_KB ?? 64) * 1024);
const DIR = process.env.PROFILE_DIR;
const TOP = Number(process.env.PROFILE_TOP ?? 25);
/** Packages whose functions are listed one by one (minified name @ line:column), e.g. `@ag-ui/client`. */
const DETAIL = new Set((process.env.PROFILE_DETAIL ?? "").split(",").filter(Boolean));

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
const root = new URL("../../", import.meta.url).href;

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/** `src/client/transport/sse-reader.ts readSse`, `rxjs`, `@ag-ui/client`, `(garbage collector)`; a builtin is charged to its JS caller. */
function selfByPlace(profile: CpuProfile): Map<string, number> {
  const nodes = profile.nodes as Node[];
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const place = (node: Node): string => {
    const { url, functionName } = node.callFrame;
    if (!url) return functionName.startsWith("(") ? functionName : "";
    const packageAt = url.lastIndexOf("/node_modules/");
    if (packageAt >= 0) {
      const [first, second] = url.slice(packageAt + "/node_modules/".length).split("/");
      const name = first!.startsWith("@") ? `${first}/${second}` : first!;
      return DETAIL.has(name) ? `${name} ${functionName || "(anonymous)"}@${node.callFrame.lineNumber + 1}:${node.callFrame.columnNumber + 1}` : name;
    }
    if (url.startsWith(root)) return `${url.slice(root.length)} ${functionName || "(anonymous)"}`;
    return url.startsWith("node:") ? "node internals" : url;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    let node = byId.get(id)!;
    let where = place(node);
    // A builtin (JSON.parse, structuredClone, WeakMap#set, TextDecoder): charge its nearest JS caller.
    for (let at = parent.get(node.id); where === "" && at !== undefined; at = parent.get(at)) {
      node = byId.get(at)!;
      where = place(node);
    }
    where ||= "(native)";
    totals.set(where, (totals.get(where) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return totals;
}

async function profileContender(session: Session, contender: Contender, workload: ReturnType<typeof buildWorkload>) {
  for (let round = 0; round < WARMUP; round++) await contender.round(workload, CHUNK);
  collectGarbage();
  await session.post("Profiler.start");
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) times.push((await contender.round(workload, CHUNK)).ms);
  const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
  if (DIR) writeFileSync(join(DIR, `bench-client-${contender.name}.cpuprofile`), JSON.stringify(profile));
  return { times, totals: selfByPlace(profile) };
}

const workload = buildWorkload(MB * 1e6);
console.log(
  `bench/client profile: ${(workload.bytes / 1e6).toFixed(2)} MB, ${workload.events.toLocaleString("en-US")} events; ${WARMUP} warm-up + ${ROUNDS} profiled rounds per contender`,
);
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
const ref = await profileContender(session, reference, workload);
const tth = await profileContender(session, tether(), workload);
session.disconnect();

const ms = (us: number) => (us / 1000 / ROUNDS).toFixed(1);
console.log(`round times (ms): reference ${ref.times.map((t) => t.toFixed(0)).join(", ")}; tether ${tth.times.map((t) => t.toFixed(0)).join(", ")}`);
const places = new Set([...ref.totals.keys(), ...tth.totals.keys()]);
const rows = [...places].map((place) => ({ place, ref: ref.totals.get(place) ?? 0, tether: tth.totals.get(place) ?? 0 }));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
console.log(`sampled per round: reference ${ms(sum(rows.map((r) => r.ref)))} ms, tether ${ms(sum(rows.map((r) => r.tether)))} ms`);
console.log("\nself time per round (ms), by place; sorted by tether − reference:");
console.log(`${"reference".padStart(10)} ${"tether".padStart(10)} ${"diff".padStart(10)}  place`);
for (const row of rows.sort((a, b) => b.tether - b.ref - (a.tether - a.ref)).slice(0, TOP)) {
  console.log(`${ms(row.ref).padStart(10)} ${ms(row.tether).padStart(10)} ${ms(row.tether - row.ref).padStart(10)}  ${row.place}`);
}
console.log("…");
for (const row of rows.sort((a, b) => a.tether - a.ref - (b.tether - b.ref)).slice(0, 5)) {
  console.log(`${ms(row.ref).padStart(10)} ${ms(row.tether).padStart(10)} ${ms(row.tether - row.ref).padStart(10)}  ${row.place}`);
}
