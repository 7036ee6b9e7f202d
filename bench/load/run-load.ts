import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { processCpuMs } from "../instances/proc-cpu.ts";
import { acceptQueue, listenOverflows } from "./listen-queue.ts";
import type { LoadConfig, LoadResult } from "./load-client.ts";
import { processRss } from "./process-rss.ts";

const CLIENT = fileURLToPath(new URL("./load-client.ts", import.meta.url));
const SAMPLE_EVERY_MS = 250;

export interface Measurement {
  result: LoadResult;
  /** The server's RSS just before the load, bytes. */
  idleRss: number;
  /**
   * Its RSS while the most runs were open, bytes: the median of the samples
   * taken while every run was open or, when they never all were, the sample
   * with the most open. `openRuns` says how many were.
   */
  openRss: number;
  openRuns: number;
  /** Whether `openRss` was taken with every run open. */
  allOpen: boolean;
  peakRss: number;
  /** CPU used from before the first request to the last stream's end, ms. */
  serverCpuMs: number;
  modelCpuMs: number;
  /** The server's accept queue: the longest seen, and for how long (s) it was full. */
  acceptQueue: { max: number; fullSeconds: number };
  /** Connections the kernel dropped at a full accept queue meanwhile (machine-wide). */
  listenOverflows: number;
}

/**
 * One load: the client (`load-client.ts`) in a process of its own against
 * the server `serverPid`, whose RSS and accept queue are sampled every
 * 250 ms meanwhile and whose CPU (and the model's) is read before and after.
 */
export async function runLoad(config: LoadConfig, pids: { server: number; model: number }): Promise<Measurement> {
  const port = Number(new URL(config.runUrl).port);
  const idleRss = processRss(pids.server);
  const overflowsBefore = listenOverflows();
  const cpuBefore = { server: processCpuMs(pids.server), model: processCpuMs(pids.model) };
  let cpuAfter = cpuBefore;
  let openNow = 0;
  const samples: Array<{ rss: number; open: number }> = [];
  const queue = { max: 0, fullSeconds: 0 };
  const sampler = setInterval(() => {
    samples.push({ rss: processRss(pids.server), open: openNow });
    const waiting = acceptQueue(port);
    queue.max = Math.max(queue.max, waiting);
    // Node listens with a backlog of 511: the kernel holds at most 512.
    if (waiting >= 511) queue.fullSeconds += SAMPLE_EVERY_MS / 1000;
  }, SAMPLE_EVERY_MS);
  const child = spawn(process.execPath, ["--conditions=tether-source", "--import", "tsx", CLIENT], {
    env: { ...process.env, BENCH_LOAD_CONFIG: JSON.stringify(config) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    const result = await new Promise<LoadResult>((resolve, reject) => {
      let got: LoadResult | undefined;
      child.on("message", (message: { type: string; count?: number; result?: LoadResult }) => {
        if (message.type === "open") openNow = message.count!;
        else if (message.type === "all-done") cpuAfter = { server: processCpuMs(pids.server), model: processCpuMs(pids.model) };
        else if (message.type === "result") got = message.result;
      });
      child.once("exit", (code) => (got ? resolve(got) : reject(new Error(`the load client exited (${code}) without a result`))));
    });
    const allOpen = samples.filter((sample) => sample.open === config.runs).sort((a, b) => a.rss - b.rss);
    const mostOpen = samples.reduce((best, sample) => (sample.open > best.open ? sample : best), { rss: idleRss, open: 0 });
    return {
      result,
      idleRss,
      ...(allOpen.length
        ? { openRss: allOpen[Math.floor(allOpen.length / 2)]!.rss, openRuns: config.runs, allOpen: true }
        : { openRss: mostOpen.rss, openRuns: mostOpen.open, allOpen: false }),
      peakRss: Math.max(idleRss, ...samples.map((sample) => sample.rss)),
      serverCpuMs: cpuAfter.server - cpuBefore.server,
      modelCpuMs: cpuAfter.model - cpuBefore.model,
      acceptQueue: queue,
      listenOverflows: listenOverflows() - overflowsBefore,
    };
  } finally {
    clearInterval(sampler);
    if (child.exitCode === null) child.kill();
  }
}
