import type { Measurement } from "./run-load.ts";

export interface Measured {
  name: string;
  measurement: Measurement;
}

const MB = 1024 * 1024;
const fixed = (value: number | undefined, digits = 1) => (value === undefined || Number.isNaN(value) ? "n/a" : value.toFixed(digits));

/** What one load says about its server: the figures compared, then how to read them. */
function figures(measurement: Measurement) {
  const { result, idleRss, openRss, openRuns, allOpen, peakRss, serverCpuMs, modelCpuMs } = measurement;
  const percentOfCore = (cpuMs: number) => fixed((cpuMs / (result.wallSeconds * 1000)) * 100, 0);
  const perRun = openRuns ? (openRss - idleRss) / openRuns / 1024 : undefined;
  return {
    delayP50: result.delayMs.p50,
    delayP99: result.delayMs.p99,
    rssPerRunKb: perRun,
    cpuPerRunMs: serverCpuMs / result.runs,
    rows: [
      ["runs ended with RUN_FINISHED", `${result.ok} / ${result.runs}`],
      ["runs streaming at once (most)", String(result.maxOpen)],
      [
        "added delay, model token → client event, p50 / p90 / p99 / max ms",
        [result.delayMs.p50, result.delayMs.p90, result.delayMs.p99, result.delayMs.max].map((value) => fixed(value)).join(" / "),
      ],
      ["request → RUN_STARTED, p50 / p99 / max ms", [result.startMs.p50, result.startMs.p99, result.startMs.max].map((value) => fixed(value, 0)).join(" / ")],
      ["events lost / duplicated (SSE id seq)", result.events.checked ? `${result.events.lost} / ${result.events.duplicated}` : "no ids to check"],
      ["tokens lost / duplicated / out of order", `${result.tokens.lost} / ${result.tokens.duplicated} / ${result.tokens.outOfOrder}`],
      ["server RSS idle → runs open (peak) MB", `${fixed(idleRss / MB)} → ${fixed(openRss / MB)} (${fixed(peakRss / MB)})`],
      [`server RSS per open run kB`, `${fixed(perRun, 0)}${allOpen ? "" : ` (at ${openRuns} open, not all)`}`],
      ["server CPU per run ms", fixed(serverCpuMs / result.runs)],
      ["server CPU over the load, % of one core", percentOfCore(serverCpuMs)],
      ["answers streaming at once at the model (most)", String(result.model.maxOpenStreams)],
      ["model calls / runs the client saw start", `${result.model.requests} / ${result.started}`],
      ["model tokens streamed for runs the client never saw start", String(result.unseenTokens)],
      ["accept queue: longest / seconds full", `${measurement.acceptQueue.max} / ${fixed(measurement.acceptQueue.fullSeconds, 2)}`],
      ["connections dropped at a full accept queue", String(measurement.listenOverflows)],
    ] as Array<[string, string]>,
    context: [
      [
        "model: tokens/s per answer (median), timer lateness p99 ms, CPU % of a core",
        `${fixed(result.achievedTokensPerSecond)}, ${fixed(result.model.lateMs.p99)}, ${percentOfCore(modelCpuMs)}`,
      ],
      ["client: event-loop delay p99 ms, CPU % of a core", `${fixed(result.clientLoopDelayP99Ms)}, ${percentOfCore(result.clientCpuMs)}`],
      ["clock offset model − client ms (read in a round trip of)", `${fixed(result.clock.offsetMs, 3)} (${fixed(result.clock.roundTripMs, 2)})`],
    ] as Array<[string, string]>,
  };
}

/** Prints one table: a column per server, and Tether's figures over the peer's where there is a peer. */
export function printReport(measured: Measured[]) {
  const all = measured.map(({ name, measurement }) => ({ name, measurement, ...figures(measurement) }));
  const [tether, peer] = all;
  const ratio = (key: "delayP50" | "delayP99" | "rssPerRunKb" | "cpuPerRunMs") =>
    peer && tether?.[key] !== undefined && peer[key] !== undefined ? `${fixed(tether[key]! / peer[key]!, 2)}` : "";
  const ratios: Record<number, string> = { 2: `p50 ${ratio("delayP50")}, p99 ${ratio("delayP99")}`, 7: ratio("rssPerRunKb"), 8: ratio("cpuPerRunMs") };
  console.log("");
  console.log(`| | ${all.map((one) => one.name).join(" | ")} |${peer ? " Tether ÷ peer |" : ""}`);
  console.log(`|---|${all.map(() => "---|").join("")}${peer ? "---|" : ""}`);
  tether!.rows.forEach(([label], index) =>
    console.log(`| ${label} | ${all.map((one) => one.rows[index]![1]).join(" | ")} |${peer ? ` ${ratios[index] ?? ""} |` : ""}`),
  );
  tether!.context.forEach(([label], index) => console.log(`| ${label} | ${all.map((one) => one.context[index]![1]).join(" | ")} |${peer ? " |" : ""}`));
  for (const one of all) {
    const { result } = one.measurement;
    if (result.firstFailure)
      console.log(`${one.name}: ${result.runs - result.ok} runs failed (${JSON.stringify(result.failures)}); first: ${result.firstFailure}`);
    if (!one.measurement.allOpen) console.log(`${one.name}: the ${result.runs} runs were never all open at once (at most ${result.maxOpen}).`);
    if (result.model.unmatched || result.model.repeatedKeys)
      console.log(`${one.name}: the model got ${result.model.unmatched} requests it could not place and ${result.model.repeatedKeys} repeated asks.`);
  }
}
