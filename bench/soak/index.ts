/**
 * Mixed traffic for BENCH_SOAK_SECONDS (600) against the demo server (SQLite,
 * demo sign-in, the offline playbook model pausing BENCH_SOAK_CHUNK_DELAY_MS,
 * 5 ms, between stream parts) as a process of its own, from
 * BENCH_SOAK_CONCURRENCY (8) clients in this process, each going round
 * BENCH_SOAK_MIX (story,approval,story,reconnect,cancel) of:
 *   - the two-turn story: kim opens the work request list, the browser says it is displayed, the agent answers;
 *   - an approval: lee closes a request as fixed, and answers the approval in a second run;
 *   - a reconnect: a run's stream dropped mid-run, resumed with Last-Event-ID;
 *   - a cancel: a run cancelled mid-run.
 * The server's RSS and V8 heap are read every BENCH_SOAK_SAMPLE_SECONDS (10)
 * over its IPC channel (`process.memoryUsage()`, and the heap in use right
 * after its latest full collection; no endpoint in the product). After
 * BENCH_SOAK_WARMUP_SECONDS (120, at most a fifth of the soak) it judges
 * whether RSS and the heap after full collections held a steady state: max
 * within 10% of min, and the slope of a least-squares line per minute. Prints every sample, the traffic with its
 * errors, and the verdict; exits 1 on a traffic error or a drift.
 *
 *   npm run bench:soak
 *   BENCH_SOAK_SECONDS=90 npm run bench:soak
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processCpuMs } from "../instances/proc-cpu.ts";
import { playStory } from "../instances/story-client.ts";
import { startNodeFlags, startProcess } from "../load/start-process.ts";
import { approvalScenario } from "./approval.ts";
import { cancel } from "./cancel.ts";
import { reconnect } from "./reconnect.ts";
import type { SoakTarget } from "./soak-target.ts";
import { trend } from "./trend.ts";

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const SAMPLE_SECONDS = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_SOAK_WARMUP_SECONDS ?? Math.min(120, Math.floor(SECONDS / 5)));
const CONCURRENCY = Number(process.env.BENCH_SOAK_CONCURRENCY ?? 8);
const CHUNK_DELAY_MS = process.env.BENCH_SOAK_CHUNK_DELAY_MS ?? "5";
const MIX = (process.env.BENCH_SOAK_MIX ?? "story,approval,story,reconnect,cancel").split(",").map((name) => name.trim());
const STEADY_PERCENT = 10;
const MB = 1024 * 1024;

interface ServerMemory {
  memory: NodeJS.MemoryUsage;
  /** Heap in use right after the latest full collection, and how many there were. */
  afterFullGc: { heapUsed: number; collections: number };
}
interface Sample extends ServerMemory {
  seconds: number;
  scenarios: number;
  errors: number;
}
interface Tally {
  ok: number;
  errors: number;
  firstError?: string;
  notes: Record<string, number>;
}

const dataDir = mkdtempSync(join(tmpdir(), "tether-bench-soak-"));
// Node's flags as `npm start` gives them (package.json).
const server = await startProcess("Tether", [...startNodeFlags, "--conditions=tether-source", "--import", "tsx", "bench/soak/demo-server.ts"], {
  env: { ...process.env, TETHER_DATA_DIR: dataDir, BENCH_SOAK_CHUNK_DELAY_MS: CHUNK_DELAY_MS },
  ready: /listening (\S+)/,
  ipc: true,
});
const memory = () =>
  new Promise<ServerMemory>((resolve) => {
    server.child.once("message", resolve);
    server.child.send("memory");
  });
try {
  const login = async (user: string) =>
    (
      (await (
        await fetch(`${server.url}/api/demo/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ user }) })
      ).json()) as { token: string }
    ).token;
  const target: SoakTarget = { url: server.url, tokens: { kim: await login("kim"), lee: await login("lee") } };
  const listed = await fetch(`${server.url}/api/workdesk/requests`, { headers: { Authorization: `Bearer ${target.tokens.lee}` } });
  const openIds = ((await listed.json()) as { requests: Array<{ id: string; status: string }> }).requests
    .filter((request) => request.status !== "closed")
    .map((request) => request.id);
  const plays: Record<string, () => Promise<string | void>> = {
    story: () => playStory(target.url, target.tokens.kim).then(() => undefined),
    approval: approvalScenario(target, openIds),
    reconnect: () => reconnect(target),
    cancel: () => cancel(target),
  };
  const scenarios = MIX.map((name): [string, () => Promise<string | void>] => {
    if (!plays[name]) throw new Error(`BENCH_SOAK_MIX names "${name}"; the scenarios are ${Object.keys(plays).join(", ")}.`);
    return [name, plays[name]];
  });
  const tallies = new Map<string, Tally>(scenarios.map(([name]) => [name, { ok: 0, errors: 0, notes: {} }]));
  const count = () =>
    [...tallies.values()].reduce((sum, tally) => ({ done: sum.done + tally.ok + tally.errors, errors: sum.errors + tally.errors }), { done: 0, errors: 0 });

  console.log(
    `Soak: ${SECONDS} s of ${MIX.join(", ")} from ${CONCURRENCY} clients (playbook pauses ${CHUNK_DELAY_MS} ms), ` +
      `memory every ${SAMPLE_SECONDS} s, judged after ${WARMUP_SECONDS} s; node ${process.version}`,
  );
  console.log("\n| s | RSS MB | heap used MB | after full GC MB (GCs) | heap total MB | external MB | scenarios | errors |\n|---|---|---|---|---|---|---|---|");
  const started = performance.now();
  const cpuBefore = processCpuMs(server.pid);
  const deadline = started + SECONDS * 1000;
  const samples: Sample[] = [];
  const sample = async () => {
    const seconds = Math.round((performance.now() - started) / 1000);
    const { done, errors } = count();
    const taken = { seconds, ...(await memory()), scenarios: done, errors };
    samples.push(taken);
    const { rss, heapUsed, heapTotal, external } = taken.memory;
    const { afterFullGc } = taken;
    console.log(
      `| ${seconds} | ${(rss / MB).toFixed(1)} | ${(heapUsed / MB).toFixed(1)} | ${(afterFullGc.heapUsed / MB).toFixed(1)} (${afterFullGc.collections}) | ` +
        `${(heapTotal / MB).toFixed(1)} | ${(external / MB).toFixed(1)} | ${done} | ${errors} |`,
    );
  };
  await sample();
  const sampler = setInterval(() => void sample(), SAMPLE_SECONDS * 1000);
  const client = async (index: number) => {
    for (let turn = index; performance.now() < deadline; turn++) {
      const [name, play] = scenarios[turn % scenarios.length]!;
      const tally = tallies.get(name)!;
      try {
        const note = await play();
        tally.ok++;
        if (note) tally.notes[note] = (tally.notes[note] ?? 0) + 1;
      } catch (error) {
        tally.errors++;
        tally.firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => client(index)));
  clearInterval(sampler);
  await sample();
  const cpuMs = processCpuMs(server.pid) - cpuBefore;

  const { done, errors } = count();
  console.log("\n| traffic | ok | errors | notes | first error |\n|---|---|---|---|---|");
  for (const [name, tally] of tallies) {
    const notes = Object.entries(tally.notes).map(([note, times]) => `${note}: ${times}`);
    console.log(`| ${name} | ${tally.ok} | ${tally.errors} | ${notes.join(", ")} | ${tally.firstError ?? ""} |`);
  }
  console.log(
    `${done} scenarios in ${SECONDS} s (${(done / SECONDS).toFixed(1)}/s), server CPU ${(cpuMs / done).toFixed(1)} ms per scenario; ${openIds.length} requests still open`,
  );

  const judged = samples.filter((taken) => taken.seconds >= WARMUP_SECONDS);
  let drifting = false;
  if (judged.length < 3) console.log(`\nToo few samples after the warm-up (${judged.length}) to judge memory: soak longer.`);
  else {
    console.log(`\nAfter the warm-up (${judged.length} samples from ${judged[0]!.seconds} s):`);
    // heapUsed at an arbitrary moment swings with the garbage of the young generation; it is shown, not judged.
    for (const [label, read, judge] of [
      ["RSS", (taken: Sample) => taken.memory.rss, true],
      ["heap after full GC", (taken: Sample) => taken.afterFullGc.heapUsed, true],
      ["heap used (any moment)", (taken: Sample) => taken.memory.heapUsed, false],
    ] as const) {
      const fitted = trend(judged.map((taken) => ({ seconds: taken.seconds, value: read(taken) })));
      const steady = fitted.spreadPercent <= STEADY_PERCENT;
      if (judge) drifting ||= !steady;
      console.log(
        `  ${label}: ${(fitted.min / MB).toFixed(1)}–${(fitted.max / MB).toFixed(1)} MB, max ${fitted.spreadPercent.toFixed(1)}% over min; ` +
          `slope ${(fitted.slopePerMinute / MB).toFixed(2)} MB/min (${fitted.slopePercentPerMinute.toFixed(2)}%/min)` +
          (judge ? `: ${steady ? "steady" : `NOT steady (over ${STEADY_PERCENT}%)`}` : " (shown, not judged)"),
      );
    }
  }
  console.log(
    `Verdict: ${errors ? `${errors} traffic errors; ` : ""}${drifting ? "memory drifts" : judged.length >= 3 ? "memory is a steady state" : "not judged"}`,
  );
  process.exitCode = errors || drifting ? 1 : 0;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
