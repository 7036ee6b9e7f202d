/**
 * The pipeline benchmark in several fresh processes, one after another: one
 * process's ratio depends on how V8 happened to compile it (identical
 * processes of one build measured 0.39–0.52 against the bare writer), so a
 * target is judged on the median across processes, with the spread beside it.
 *
 *   npm run bench:processes                      # 5 processes
 *   BENCH_PROCESSES=9 npm run bench:processes
 *
 * Each process is `npm run bench` without its cost comparison (BENCH_COST=off),
 * the other BENCH_* settings passed on.
 */
import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, positiveInteger, TARGETS } from "./report.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

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

/** "tether / bare    median 0.487× (0.423–0.515) over 5 processes   target ≥ 0.50×   MISSED" */
export function acrossLine(label: string, ratios: number[], target: number): string {
  const middle = median(ratios);
  const spread = `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`;
  return `${label.padEnd(16)} median ${middle.toFixed(3)}× (${spread}) over ${ratios.length} process${ratios.length === 1 ? "" : "es"}   target ≥ ${target.toFixed(2)}×   ${middle >= target ? "MET" : "MISSED"}`;
}

function runOne(): Promise<PipelineResult> {
  const child = spawn("npm", ["run", "bench"], {
    cwd: ROOT,
    env: { ...process.env, BENCH_COST: "off" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  // 'close', not 'exit': by then all it printed is read, the lines that say why it failed included.
  return new Promise((resolve, reject) =>
    child.on("close", (code, signal) => {
      try {
        if (code !== 0) throw new Error(`the benchmark ${signal ? `was killed by ${signal}` : `exited with ${code}`}:\n${output.slice(-2000)}`);
        resolve(readResult(output));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    }),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const processes = positiveInteger("BENCH_PROCESSES", 5);
  console.log(`bench/pipeline across ${processes} fresh process${processes === 1 ? "" : "es"}, one after another (node ${process.version})`);
  const results: PipelineResult[] = [];
  for (let index = 0; index < processes; index++) {
    const result = await runOne();
    results.push(result);
    console.log(`  process ${index + 1}/${processes}: tether / bare ${result.bare.toFixed(3)}×, tether / minimal ${result.minimal.toFixed(3)}×`);
  }
  console.log("");
  for (const against of ["bare", "minimal"] as const) {
    console.log(
      acrossLine(
        `tether / ${against}`,
        results.map((result) => result[against]),
        TARGETS[against],
      ),
    );
  }
}
