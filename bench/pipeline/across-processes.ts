/**
 * The pipeline benchmark in several fresh processes, one after another: one
 * process's ratio depends on how V8 happened to compile it (identical runs of
 * one build differ by ±8%), so a target is judged on the median across
 * processes, with the spread beside it.
 *
 *   npm run bench:processes                      # 5 processes
 *   BENCH_PROCESSES=9 npm run bench:processes
 *
 * Each process is `npm run bench` with one short batch of its cost part
 * (BENCH_COST_RUNS=1) and the other BENCH_* settings passed on.
 */
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, TARGETS } from "./report.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 5);
if (!Number.isInteger(PROCESSES) || PROCESSES < 1) throw new Error(`BENCH_PROCESSES must be a positive integer, got "${process.env.BENCH_PROCESSES}".`);

export interface PipelineResult {
  bare: number;
  minimal: number;
}

/** The ratios one process printed, or an error saying what it printed instead. */
export function readResult(output: string): PipelineResult {
  const line = output.split("\n").find((candidate) => candidate.startsWith("PIPELINE_RESULT "));
  if (!line) throw new Error(`the benchmark printed no PIPELINE_RESULT line:\n${output.slice(-2000)}`);
  const result = JSON.parse(line.slice("PIPELINE_RESULT ".length)) as PipelineResult;
  if (!(result.bare > 0 && result.minimal > 0)) throw new Error(`unreadable PIPELINE_RESULT: ${line}`);
  return result;
}

/** "median 0.44× (0.42–0.50) over 5 processes, target ≥ 0.50×: MISSED" */
export function acrossLine(label: string, ratios: number[], target: number): string {
  const middle = median(ratios);
  const spread = `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`;
  return `${label.padEnd(16)} median ${middle.toFixed(3)}× (${spread}) over ${ratios.length} processes   target ≥ ${target.toFixed(2)}×   ${middle >= target ? "MET" : "MISSED"}`;
}

function runOne(): Promise<PipelineResult> {
  const child = spawn("npm", ["run", "bench"], {
    cwd: ROOT,
    env: { ...process.env, BENCH_COST_RUNS: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => {
      try {
        if (code !== 0) throw new Error(`the benchmark exited with ${code}:\n${output.slice(-2000)}`);
        resolve(readResult(output));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    }),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`bench/pipeline across ${PROCESSES} fresh processes, one after another (node ${process.version})`);
  const results: PipelineResult[] = [];
  for (let index = 0; index < PROCESSES; index++) {
    const result = await runOne();
    results.push(result);
    console.log(`  process ${index + 1}/${PROCESSES}: tether / bare ${result.bare.toFixed(3)}×, tether / minimal ${result.minimal.toFixed(3)}×`);
  }
  console.log("");
  console.log(
    acrossLine(
      "tether / bare",
      results.map((result) => result.bare),
      TARGETS.bare,
    ),
  );
  console.log(
    acrossLine(
      "tether / minimal",
      results.map((result) => result.minimal),
      TARGETS.minimal,
    ),
  );
}
