/**
 * Where Tether's time goes in the pipeline benchmark. Runs only the Tether
 * contender (same stub model, same SQLite event log, same worker client) and
 * watches it from the outside, without touching src:
 *
 * - appendEvents is timed through a wrapper around the store;
 * - every socket write (ServerResponse#write) is logged with its size and
 *   whether it hit backpressure, giving the run's timeline;
 * - with PROFILE_CPU=<file.cpuprofile>, the main thread is CPU-profiled over
 *   the measured runs only (after one warm-up run), and a summary by source
 *   file and by function is printed.
 *
 *   npx tsx bench/pipeline/profile.ts
 *   PROFILE_CPU=/tmp/tether.cpuprofile npx tsx bench/pipeline/profile.ts
 *
 * Knobs, for telling causes apart (diagnostics only, not the benchmark):
 *   PROFILE_EVENT_LOG=off      appendEvents does nothing (what the log costs)
 *   BENCH_YIELD_EVERY=256      the stub yields to the event loop every 256 parts
 *   BENCH_EVENTS, BENCH_ROUNDS as for the benchmark
 */
import { readFileSync, writeFileSync } from "node:fs";
import { ServerResponse } from "node:http";
import { Session } from "node:inspector/promises";
import type { RunStore } from "@tether-agent/tether/store";
import { startTether } from "./contenders/tether.ts";
import { summarizeProfile, type CpuProfile } from "./profile-summary.ts";
import { startWorkerClient } from "./worker-client.ts";

const DELTAS = Number(process.env.BENCH_EVENTS ?? 100_000);
const RUNS = Number(process.env.BENCH_ROUNDS ?? 5);
const YIELD_EVERY = Number(process.env.BENCH_YIELD_EVERY ?? 0);
const EVENT_LOG = process.env.PROFILE_EVENT_LOG !== "off";
const CPU_FILE = process.env.PROFILE_CPU;

let t0 = 0;
const since = (at: number) => `${(at - t0).toFixed(0)} ms`;
const appends: Array<{ at: number; ms: number; events: number }> = [];
const writes: Array<{ at: number; bytes: number; ok: boolean }> = [];

function timed(store: RunStore): RunStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key !== "appendEvents") return value;
      return async (runId: string, events: Parameters<RunStore["appendEvents"]>[1]) => {
        const at = performance.now();
        try {
          if (EVENT_LOG) await target.appendEvents(runId, events);
        } finally {
          appends.push({ at, ms: performance.now() - at, events: events.length });
        }
      };
    },
  });
}

const write = ServerResponse.prototype.write;
ServerResponse.prototype.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
  const ok = (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  writes.push({ at: performance.now(), bytes: (chunk as { length?: number })?.length ?? 0, ok });
  return ok;
} as typeof write;

const tether = await startTether(DELTAS, { wrapStore: timed, yieldEvery: YIELD_EVERY });
const client = await startWorkerClient();
console.log(
  `tether only: ${DELTAS} deltas, event log ${EVENT_LOG ? "on" : "OFF"}, stub ${YIELD_EVERY > 0 ? `yields every ${YIELD_EVERY} parts` : "never yields"}`,
);
/** The main thread's CPU time so far in clock ticks of 10 ms, on Linux (0 elsewhere): less shaken by a busy machine than the wall clock. */
function mainThreadTicks(): number {
  if (process.platform !== "linux") return 0;
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]); // utime, stime
}

const session = new Session();
let ticksFrom = 0;
try {
  for (let run = 0; run <= RUNS; run++) {
    if (run === 1) ticksFrom = mainThreadTicks();
    if (run === 1 && CPU_FILE) {
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 200 });
      await session.post("Profiler.start");
    }
    appends.length = 0;
    writes.length = 0;
    t0 = performance.now();
    const result = await client.run(tether.request());
    const appendMs = appends.reduce((sum, a) => sum + a.ms, 0);
    const largestWrite = writes.reduce((max, w) => (w.bytes > max.bytes ? w : max), writes[0]!);
    const firstStall = writes.findIndex((w) => !w.ok);
    const afterStall = firstStall >= 0 ? writes[firstStall + 1] : undefined;
    console.log(
      `${run === 0 ? "warm-up" : `run ${run}`}: ${result.ms.toFixed(0)} ms, ${result.events} events, ${((result.events / result.ms) * 1000).toFixed(0)} events/s`,
    );
    console.log(
      `  appendEvents ${appends.length}× ${appendMs.toFixed(0)} ms in total, largest batch ${Math.max(...appends.map((a) => a.events))} events` +
        (appends[0] ? `, first at ${since(appends[0].at)} (took ${appends[0].ms.toFixed(0)} ms)` : ""),
    );
    console.log(
      `  socket writes ${writes.length}, largest ${largestWrite.bytes} bytes at ${since(largestWrite.at)}` +
        (firstStall >= 0
          ? `; first backpressure after ${writes.slice(0, firstStall + 1).reduce((s, w) => s + w.bytes, 0)} bytes at ${since(writes[firstStall]!.at)}, next write at ${afterStall ? since(afterStall.at) : "-"}`
          : ""),
    );
  }
  if (process.platform === "linux") console.log(`\nmain thread CPU, runs 1..${RUNS}: ${((mainThreadTicks() - ticksFrom) * 10) / RUNS} ms a run`);
  if (CPU_FILE) {
    const { profile } = (await session.post("Profiler.stop")) as { profile: CpuProfile };
    writeFileSync(CPU_FILE, JSON.stringify(profile));
    console.log(`\nCPU profile of runs 1..${RUNS} (main thread) written to ${CPU_FILE}\n`);
    console.log(summarizeProfile(profile));
  }
} finally {
  session.disconnect();
  await client.close();
  await tether.close();
}
