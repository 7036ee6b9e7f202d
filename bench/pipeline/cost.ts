import { BatchSpanProcessor, TracerProvider, type SpanExporter } from "@opentelemetry/sdk-trace";
import * as server from "@tether-agent/tether/server";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { loadBuildAt } from "./build-at-ref.ts";
import { startTetherVariant, type ServerBuild, type VariantContender } from "./contenders/tether-variant.ts";
import { median } from "./report.ts";
import { createToolStubModel } from "./tool-stub-model.ts";
import type { WorkerClient } from "./worker-client.ts";

/**
 * The last commit without any telemetry code: the build "telemetry off" is
 * compared with, to show that off costs nothing. BENCH_COST_REF overrides it.
 */
export const PRE_TELEMETRY_REF = "49523cb";

export interface CostOptions {
  client: WorkerClient;
  /** Runs per contender per round. */
  runs: number;
  rounds: number;
  collectGarbage(): void;
  ref?: string;
}

/** A span exporter that takes every batch and keeps nothing: the SDK's whole path but the wire. */
/** This build: the runtime, and the SQLite store from its own subpath. */
const current: ServerBuild = { ...server, createSqliteRunStore };

const discarding: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }), // ExportResultCode.SUCCESS
  shutdown: async () => {},
};

/**
 * What records and telemetry cost, in runs per second of short tool-calling
 * runs (two model calls and three server tool executions each: three record
 * facts, six spans), every contender the same server on the same workload:
 *
 * - records on (the default; telemetry off): the baseline;
 * - records off (`createTetherApp({ records: false })`);
 * - telemetry on: a real TracerProvider with a BatchSpanProcessor and an
 *   exporter that discards (the SDK's whole path but the network);
 * - the build before telemetry existed (PRE_TELEMETRY_REF, loaded from git):
 *   telemetry off must be indistinguishable from it.
 *
 * Each round interleaves the contenders run by run (the order rotating), a
 * full GC before it; a contender's time is the sum of its runs' times.
 * A ratio is the median of the rounds' ratios, with their range beside it.
 * Returns false when the benchmark broke (a contender's runs did not end as
 * the baseline's did).
 */
export async function runCostBench(options: CostOptions): Promise<boolean> {
  const { client, runs, rounds } = options;
  const ref = options.ref ?? PRE_TELEMETRY_REF;
  const model = createToolStubModel({ toolCalls: 3, deltas: 50 });
  console.log(`\nbench/pipeline cost: records and telemetry, ${runs} short runs per batch (2 model calls, 3 server tools each), 1 warm-up + ${rounds} rounds`);
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: discarding })] });
  const contenders: VariantContender[] = [
    await startTetherVariant("records on", "the default: record facts on, telemetry off", current, model),
    await startTetherVariant("records off", "createTetherApp({ records: false })", current, model, { records: false }),
    await startTetherVariant("telemetry on", "records on + TracerProvider, BatchSpanProcessor, discarding exporter", current, model, {
      telemetry: { tracerProvider: provider },
    }),
  ];
  const loaded = await loadBuildAt(ref);
  if ("build" in loaded) contenders.push(await startTetherVariant("pre-telemetry", `the build at ${ref}, before any telemetry code`, loaded.build, model));
  else console.log(`  (the build at ${ref} could not be loaded, so "telemetry off vs no telemetry code" is not measured: ${loaded.missing})`);

  try {
    const perSecond = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
    const eventCounts = new Map<string, Set<number>>(contenders.map((contender) => [contender.name, new Set()]));
    for (let round = 0; round <= rounds; round++) {
      // Run by run, the contenders interleaved (the order rotating), so a busy moment of the machine
      // falls on all of them alike rather than on one contender's whole batch.
      const spent = new Map<string, number>(contenders.map((contender) => [contender.name, 0]));
      options.collectGarbage();
      for (let run = 0; run < runs; run++) {
        for (let k = 0; k < contenders.length; k++) {
          const contender = contenders[(run + k) % contenders.length]!;
          const request = contender.request();
          const started = performance.now();
          const result = await client.run(request);
          spent.set(contender.name, spent.get(contender.name)! + performance.now() - started);
          eventCounts.get(contender.name)!.add(result.events);
        }
      }
      if (round > 0) for (const [name, ms] of spent) perSecond.get(name)!.push(runs / (ms / 1000));
      const times = [...spent].map(([name, ms]) => `${name} ${Math.round(ms)} ms`);
      console.log(`  ${(round === 0 ? "warm-up" : `round ${round}/${rounds}`).padEnd(11)} ${times.join(", ")}`);
    }

    const baseline = contenders[0]!.name;
    const counts = [...new Set(contenders.flatMap((contender) => [...eventCounts.get(contender.name)!]))];
    const rows = contenders.map((contender) => {
      const values = perSecond.get(contender.name)!;
      return `  ${contender.name.padEnd(14)} ${Math.round(median(values)).toLocaleString("en-US").padStart(7)} runs/s  (min ${Math.round(Math.min(...values))}, max ${Math.round(Math.max(...values))})  ${contender.description}`;
    });
    console.log(`\n${rows.join("\n")}\n`);
    const ratio = (a: string, b: string, label: string, verdict: (value: number, low: number, high: number) => string) => {
      const [x, y] = [perSecond.get(a), perSecond.get(b)];
      if (!x || !y) return;
      const perRound = x.map((value, index) => value / y[index]!);
      // The median of the rounds' ratios: a machine that slows down between rounds slows every contender of that round.
      const value = median(perRound);
      console.log(
        `  ${label.padEnd(36)} ${value.toFixed(3)}×  (per round ${Math.min(...perRound).toFixed(3)}–${Math.max(...perRound).toFixed(3)})  ${verdict(value, Math.min(...perRound), Math.max(...perRound))}`,
      );
    };
    ratio(
      baseline,
      "records off",
      "records on / records off",
      (value) => `records cost ${((1 - value) * 100).toFixed(1)}% of throughput; target ≤ 15%: ${value >= 0.85 ? "MET" : "MISSED"}`,
    );
    ratio("telemetry on", baseline, "telemetry on / off", (value) => `telemetry on costs ${((1 - value) * 100).toFixed(1)}% of throughput`);
    ratio(baseline, "pre-telemetry", "telemetry off / no telemetry code", (_value, low, high) =>
      low <= 1 && high >= 1 ? "indistinguishable (the rounds' ratios straddle 1)" : "DISTINGUISHABLE (every round on one side of 1)",
    );

    // Checked after timing: every variant's runs ended alike, and each wrote what it should.
    const lastRun = async (contender: VariantContender) => contender.runIds.at(-1)!;
    const facts = Object.fromEntries(
      await Promise.all(
        contenders.map(async (contender) => [contender.name, (await contender.store.listFacts(await lastRun(contender))).map((fact) => fact.kind)]),
      ),
    ) as Record<string, string[]>;
    console.log(
      `\n  events per run: ${counts.join(", ")}; facts of each variant's last run: ${Object.entries(facts)
        .map(([name, kinds]) => `${name} [${kinds.join(", ")}]`)
        .join("; ")}`,
    );
    const factsRight =
      facts["records off"]!.length === 0 && facts["telemetry on"]!.includes("trace") && facts[baseline]!.filter((kind) => kind === "model-call").length === 2;
    if (counts.length !== 1 || !factsRight) {
      console.log("  WARNING: the variants did not all run the same runs and write the facts expected.");
      return false;
    }
    return true;
  } finally {
    for (const contender of contenders) await contender.close();
    await provider.shutdown();
    if ("remove" in loaded) loaded.remove();
  }
}
