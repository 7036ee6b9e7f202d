/**
 * Pipeline throughput: a stub model streaming BENCH_EVENTS (default 100,000)
 * small text deltas through the full Tether server (conversion, SQLite event
 * log, SSE over loopback), against a bare node:http server writing the same
 * pre-encoded SSE bytes and a minimal Hono + @ag-ui/encoder server with no
 * store, all in one run. Prints events/s for each and both ratios.
 *
 * How: the three servers listen on 127.0.0.1 in this process; the client
 * (fetch, reading each SSE body to its end and counting frames) runs on a
 * worker thread, so it does not share the servers' event loop. Contenders go
 * round-robin, 1 warm-up + BENCH_ROUNDS (default 7) measured rounds, with a
 * young-generation GC before every request; the median events/s counts. The bare writer
 * replays the exact bytes Tether sent in an untimed capture run. After timing,
 * every Tether run's event log is read back from SQLite and counted.
 *
 * Targets: tether ≥ 0.5× bare and ≥ 0.9× minimal. A missed target is
 * reported, not fatal: the process exits 0 on a missed target, and 1 only if
 * the benchmark itself broke (wrong event counts, incomplete event log).
 *
 * Then, in the same run, what records and telemetry cost (cost.ts): short
 * tool-calling runs per second with records on and off, telemetry on and off,
 * and against the build before any telemetry code; target: records cost at
 * most 15% of throughput, telemetry off indistinguishable from no telemetry.
 *
 * Diagnostics for a miss: bench/pipeline/profile.ts. One process's figures
 * depend on how V8 compiled it; across-processes.ts runs this in several.
 *
 *   npm run bench
 *   BENCH_COST_RUNS=100 BENCH_COST_REF=<commit> npm run bench
 *   BENCH_EVENTS=20000 BENCH_ROUNDS=3 npm run bench
 *   BENCH_COST=off npm run bench          # the pipeline only
 *   BENCH_YIELD_EVERY=256 npm run bench   # stub parts arrive in bursts of 256, one macrotask each
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { runOnce, type RunResult } from "./client.ts";
import { startBare } from "./contenders/bare.ts";
import type { Contender } from "./contenders/contender.ts";
import { startMinimal } from "./contenders/minimal.ts";
import { startTether } from "./contenders/tether.ts";
import { runCostBench } from "./cost.ts";
import { positiveInteger, ratioLine, summarize, table, TARGETS } from "./report.ts";
import { startWorkerClient } from "./worker-client.ts";

const DELTAS = positiveInteger("BENCH_EVENTS", 100_000);
const ROUNDS = positiveInteger("BENCH_ROUNDS", 7);
/** 0 (default): the stub's parts are all ready at once. N: every Nth part waits for a macrotask, like network reads. */
const YIELD_EVERY = process.env.BENCH_YIELD_EVERY === "0" ? 0 : positiveInteger("BENCH_YIELD_EVERY", 0);
/** BENCH_COST=off: the pipeline only, without the records and telemetry cost comparison (bench:processes uses it). */
const COST = process.env.BENCH_COST !== "off";
/** Short tool-calling runs per batch in the records and telemetry cost comparison (see cost.ts). */
const COST_RUNS = positiveInteger("BENCH_COST_RUNS", 200);
const WARMUP_ROUNDS = 1;
/** RUN_STARTED, TEXT_MESSAGE_START, the deltas, TEXT_MESSAGE_END, RUN_FINISHED. */
const EXPECTED_EVENTS = DELTAS + 4;

/**
 * A young-generation collection before every timed request, outside the
 * timing, so no contender pays for the short-lived garbage the one before it
 * left behind (Tether's 100k-event runs leave far more than the bare
 * writer's). Not a full one: in Node 20 every web stream and AbortSignal has
 * a shape of its own, and a full collection throws away all optimized code
 * that checked the shape of one now dead. Forced before every request, that
 * was some 150 functions recompiled each round (`--trace-deopt`: "weak
 * objects"), every round slower by a quarter, a cost no server pays: its full
 * collections come every few thousand requests, not before each one.
 */
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (options?: { type: "minor" | "major" }) => void;
const collectGarbage = () => gc({ type: "minor" });

/** Splits a captured SSE body into frames, checking each is `id: <runId>:<seq>` + one data line. */
function captureFrames(text: string, runId: string): Buffer[] {
  const blocks = text.split("\n\n");
  if (blocks.at(-1) !== "") throw new Error("The captured Tether body does not end with a complete frame.");
  blocks.pop();
  return blocks.map((block, index) => {
    const [idLine, dataLine, ...rest] = block.split("\n");
    if (idLine !== `id: ${runId}:${index + 1}` || !dataLine?.startsWith("data: ") || rest.length > 0) {
      throw new Error(`Captured frame ${index + 1} is not "id: ${runId}:${index + 1}" + one data line: ${JSON.stringify(block.slice(0, 120))}`);
    }
    JSON.parse(dataLine.slice(6));
    return Buffer.from(`${block}\n\n`);
  });
}

async function main() {
  const started = performance.now();
  console.log(`bench/pipeline: ${DELTAS.toLocaleString("en-US")} text deltas → ${EXPECTED_EVENTS.toLocaleString("en-US")} AG-UI events per run`);
  console.log(`rounds: ${WARMUP_ROUNDS} warm-up + ${ROUNDS} measured, round-robin; client on a worker thread; node ${process.version}`);
  console.log(`stub model: ${YIELD_EVERY > 0 ? `yields to the event loop every ${YIELD_EVERY} parts` : "every part ready at once (no yielding)"}\n`);

  const tether = await startTether(DELTAS, { yieldEvery: YIELD_EVERY });
  const minimal = await startMinimal(DELTAS, YIELD_EVERY);
  const client = await startWorkerClient();
  const contenders: Contender[] = [tether, minimal];
  try {
    // Capture the exact bytes Tether sends (untimed), for the bare writer to replay.
    const captureRequest = tether.request();
    const capture = await runOnce(captureRequest, true);
    const frames = captureFrames(capture.text!, tether.runIds.at(-1)!);
    if (frames.length !== EXPECTED_EVENTS) throw new Error(`Tether sent ${frames.length} frames; expected ${EXPECTED_EVENTS}.`);
    const bare = await startBare(frames);
    contenders.push(bare);
    const order = [tether, bare, minimal];

    const results = new Map<string, RunResult[]>(order.map((contender) => [contender.name, []]));
    const mismatches: string[] = [];
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      const measured = round >= WARMUP_ROUNDS;
      const times: string[] = [];
      // Rotate who goes first, so drift and GC debt spread evenly.
      for (let k = 0; k < order.length; k++) {
        const contender = order[(round + k) % order.length]!;
        const request = contender.request();
        collectGarbage();
        const result = await client.run(request);
        if (result.events !== EXPECTED_EVENTS) mismatches.push(`${contender.name} round ${round}: ${result.events} events`);
        if (measured) results.get(contender.name)!.push(result);
        times.push(`${contender.name} ${Math.round(result.ms)} ms`);
      }
      const done = measured ? `round ${round - WARMUP_ROUNDS + 1}/${ROUNDS}` : "warm-up";
      console.log(`  ${done.padEnd(11)} ${times.join(", ")}`);
    }

    // The event log must hold every event of every Tether run (checked after timing).
    const logCounts: number[] = [];
    const statuses = new Set<string>();
    for (const runId of tether.runIds) {
      logCounts.push((await tether.store.readEvents(runId)).length);
      statuses.add((await tether.store.getRun(runId))?.status ?? "missing");
    }
    const logComplete = logCounts.every((n) => n === EXPECTED_EVENTS);

    const summaries = order.map((contender) => summarize(contender.name, contender.description, results.get(contender.name)!));
    const [t, b, m] = summaries as [ReturnType<typeof summarize>, ReturnType<typeof summarize>, ReturnType<typeof summarize>];
    console.log("");
    console.log(table(summaries));
    console.log("");
    for (const summary of summaries) console.log(`  ${summary.name.padEnd(8)} ${summary.description}`);
    console.log("");
    console.log(ratioLine("tether / bare", t.median / b.median, TARGETS.bare));
    console.log(ratioLine("tether / minimal", t.median / m.median, TARGETS.minimal));
    // For across-processes.ts, which runs this benchmark in several processes and reads this line.
    console.log(`PIPELINE_RESULT ${JSON.stringify({ bare: t.median / b.median, minimal: t.median / m.median })}`);
    console.log("");
    console.log(
      `event log: ${tether.runIds.length} Tether runs, events stored per run: ${[...new Set(logCounts)].join(", ")} ` +
        `(expected ${EXPECTED_EVENTS}) — ${logComplete ? "complete" : "INCOMPLETE"}; run status: ${[...statuses].join(", ")}`,
    );
    console.log(
      `bytes per run: tether ${capture.bytes.toLocaleString("en-US")} (bare replays the same), minimal ${m.runs[0]!.bytes.toLocaleString("en-US")} (no id: lines)`,
    );
    if (mismatches.length > 0) console.log(`WARNING: unexpected event counts: ${mismatches.join("; ")}`);

    const costMeasured =
      !COST ||
      (await runCostBench({
        client,
        runs: COST_RUNS,
        rounds: ROUNDS,
        collectGarbage,
        ...(process.env.BENCH_COST_REF ? { ref: process.env.BENCH_COST_REF } : {}),
      }));
    console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);
    if (!logComplete || mismatches.length > 0 || !costMeasured) process.exitCode = 1;
  } finally {
    await client.close();
    for (const contender of contenders) await contender.close();
  }
}

await main();
