/**
 * Client throughput: Tether's browser SDK parsing and applying ~BENCH_MB
 * (default 10) MB of SSE events, against @ag-ui/client's own HttpAgent
 * parsing and applying the same bytes, in the same run. Prints MB, events,
 * time and events/s for each and the ratio tether time / reference time
 * (target ≤ 1.2×).
 *
 * The bytes: a thread of realistic runs generated once (deterministic), in
 * Tether's wire format `id: <runId>:<seq>\ndata: <json>\n\n`: RUN_STARTED,
 * text streamed as token-sized deltas, server tool calls with chunked
 * arguments and results, a second text message, a browser tool call every
 * fourth run (the run stops on it), RUN_FINISHED. Both contenders read
 * exactly these bytes through a custom `fetch` (HttpAgentConfig.fetch) that
 * returns `new Response(stream)` handing out BENCH_CHUNK_KB (default 64) KiB
 * per read: no sockets, only parsing and applying are measured.
 *
 * Why many runs and not one 10 MB run: the reference apply
 * (defaultApplyEvents) structured-clones the run's whole message list after
 * every event that changes it, so one run's cost grows with the square of
 * its text (one run of 1 MB took ~0.2 s here, of 4 MB ~2 s), and that shared
 * cost would bury the difference being measured. Each run gets a fresh agent
 * on both sides.
 *
 * Contenders (one round = the whole workload, run after run):
 *   reference     new HttpAgent({ url, fetch }).runAgent(), onEvent counts
 *   tether        new TetherHttpAgent({ url, eventsUrl, fetch }).runAgent(), with the session's
 *                 middleware (agent.use(readRunEvents(...))): its run event reader →
 *                 createToolRunner(...).observe, as session/session.ts wires it (one
 *                 browser tool, journal over in-memory storage)
 * and, as diagnostics without a target:
 *   ref-parse     runHttpRequest + transformHttpEventStream alone   (BENCH_DIAG=0 drops these two)
 *   tether-parse  eventStream (readSse) alone
 *   tether-agent  TetherHttpAgent without the middleware: no tool runner   (only with BENCH_DIAG=full)
 *
 * BENCH_WARMUP (default 2) warm-up rounds + BENCH_ROUNDS (default 7)
 * measured ones, round-robin with the order rotating, a full GC before each;
 * the ratio is of median wall times, and the per-round ratios (the two
 * contenders back to back) are printed beside it, as the machine's load
 * drifts. CPU time and main-thread GC pauses per round are shown too. Every
 * round is checked: event counts, the same final messages on both sides
 * (ids, roles, content and argument lengths), each browser call executed
 * exactly once and no server call executed. A failed check exits 1; a missed
 * target is reported and exits 0.
 *
 * Then dispatch latency, through the public session (bench/client/dispatch.ts):
 * each run that stops on a browser call is sent by a session of its own, its
 * TOOL_CALL_END held back until the page is idle (BENCH_DISPATCH_PAUSE_MS,
 * default 5), and the time from those bytes reaching the page to the tool's
 * `execute` being called is one sample; one warm-up pass, then
 * BENCH_DISPATCH_ROUNDS (default 3) measured ones.
 *
 *   npm run bench:client
 *   BENCH_MB=2 BENCH_ROUNDS=3 npm run bench:client
 *   BENCH_DIAG=full npm run bench:client    # also splits transport from tool runner
 */
import { PerformanceObserver } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { reference, referenceParse, tether, tetherParse, type Contender, type RoundResult } from "./contenders.ts";
import { describeDispatch, measureDispatch } from "./dispatch.ts";
import { digest, median, ratioLine, table, type Row } from "./report.ts";
import { buildWorkload } from "./workload.ts";

const MB = positiveNumber("BENCH_MB", 10);
const ROUNDS = positiveNumber("BENCH_ROUNDS", 7);
const WARMUP = process.env.BENCH_WARMUP === "0" ? 0 : positiveNumber("BENCH_WARMUP", 2);
const CHUNK = Math.round(positiveNumber("BENCH_CHUNK_KB", 64) * 1024);
const DIAGNOSTICS = process.env.BENCH_DIAG !== "0";
const FULL_DIAGNOSTICS = process.env.BENCH_DIAG === "full";
const DISPATCH_ROUNDS = positiveNumber("BENCH_DISPATCH_ROUNDS", 3);
const DISPATCH_PAUSE = positiveNumber("BENCH_DISPATCH_PAUSE_MS", 5);
const TARGET = 1.2;

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** Main-thread GC pauses, by start time, to sum per round. */
const pauses: Array<{ start: number; ms: number }> = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, ms: entry.duration });
});
gcObserver.observe({ entryTypes: ["gc"] });

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw.replace(/_/g, ""));
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}".`);
  return value;
}

async function main() {
  const started = performance.now();
  const workload = buildWorkload(MB * 1e6);
  const perType = [...workload.eventsByType].map(([type, n]) => `${type} ${n.toLocaleString("en-US")}`).join(", ");
  console.log(
    `bench/client: ${(workload.bytes / 1e6).toFixed(2)} MB of SSE, ${workload.events.toLocaleString("en-US")} events in ${workload.runs.length} runs (one thread)`,
  );
  console.log(`  ${perType}`);
  console.log(`  browser tool calls ${workload.browserCalls} (executed by the runner), server tool calls ${workload.serverCalls} (tracked only)`);
  console.log(
    `rounds: ${WARMUP} warm-up + ${ROUNDS} measured, round-robin; ${CHUNK / 1024} KiB per read; in-memory fetch; node ${process.version}` +
      (process.env.NODE_ENV ? `; NODE_ENV=${process.env.NODE_ENV} (the reference apply clones and freezes per subscriber call in development/test)` : ""),
  );
  console.log("");

  const contenders: Contender[] = [
    reference,
    tether(),
    ...(DIAGNOSTICS ? [referenceParse, tetherParse] : []),
    ...(FULL_DIAGNOSTICS ? [tether({ runner: false })] : []),
  ];
  const rows = new Map<string, Row>(
    contenders.map((contender) => [contender.name, { name: contender.name, ms: [], cpu: [], gc: [], events: workload.events, bytes: workload.bytes }]),
  );
  const paired: number[] = [];
  const problems: string[] = [];

  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const measured = round >= WARMUP;
    const results = new Map<string, RoundResult>();
    for (let k = 0; k < contenders.length; k++) {
      const contender = contenders[(round + k) % contenders.length]!;
      collectGarbage();
      await settle(); // the collection's own entries, and anything it queued, land before the clock starts
      const cpuBefore = process.cpuUsage();
      const startedAt = performance.now();
      const result = await contender.round(workload, CHUNK);
      const endedAt = performance.now();
      const cpu = process.cpuUsage(cpuBefore);
      await settle(); // GC entries are delivered asynchronously
      results.set(contender.name, result);
      if (!measured) continue;
      const row = rows.get(contender.name)!;
      row.ms.push(result.ms);
      row.cpu.push((cpu.user + cpu.system) / 1000);
      row.gc.push(pauses.filter((pause) => pause.start >= startedAt && pause.start <= endedAt).reduce((sum, pause) => sum + pause.ms, 0));
    }
    pauses.length = 0;
    if (measured) paired.push(results.get("tether")!.ms / results.get("reference")!.ms);
    problems.push(...check(workload, results, round));
    const label = measured ? `round ${round - WARMUP + 1}/${ROUNDS}` : `warm-up ${round + 1}/${WARMUP}`;
    console.log(`  ${label.padEnd(12)} ${contenders.map((c) => `${c.name} ${Math.round(results.get(c.name)!.ms)} ms`).join(", ")}`);
  }

  const at = (name: string) => median(rows.get(name)!.ms);
  const cpuAt = (name: string) => median(rows.get(name)!.cpu);
  const perEvent = (name: string) => `${((at(name) * 1e6) / workload.events / 1000).toFixed(1)} µs`;
  console.log("");
  console.log(table([...rows.values()]));
  console.log("");
  for (const contender of contenders) console.log(`  ${contender.name.padEnd(13)} ${contender.description}`);
  console.log("");
  console.log(ratioLine("tether / reference", at("tether") / at("reference"), TARGET));
  console.log(
    `  per-round ratios ${paired.map((ratio) => ratio.toFixed(2)).join(" ")} (median ${median(paired).toFixed(3)}); ` +
      `CPU time ratio ${(cpuAt("tether") / cpuAt("reference")).toFixed(3)}; per event: reference ${perEvent("reference")}, tether ${perEvent("tether")}`,
  );
  if (DIAGNOSTICS) console.log(ratioLine("tether-parse / ref-parse", at("tether-parse") / at("ref-parse")));
  if (FULL_DIAGNOSTICS) {
    console.log(ratioLine("tether-agent / reference", at("tether-agent") / at("reference")));
    console.log(ratioLine("tether / tether-agent", at("tether") / at("tether-agent")));
  }
  console.log("");
  await measureDispatch(workload, CHUNK, DISPATCH_PAUSE); // warm-up
  const dispatch: number[] = [];
  for (let round = 0; round < DISPATCH_ROUNDS; round++) dispatch.push(...(await measureDispatch(workload, CHUNK, DISPATCH_PAUSE)).samples);
  console.log(`dispatch latency (TOOL_CALL_END bytes reach the page → the tool's execute is called): ${describeDispatch(dispatch)}`);
  console.log("");
  if (problems.length === 0) {
    console.log(
      `check: every round, both sides ${workload.events.toLocaleString("en-US")} events and the same final messages in all ${workload.runs.length} runs; ` +
        `${workload.browserCalls} browser calls executed once each, ${workload.serverCalls} server calls not executed — OK`,
    );
  } else {
    console.log(`check FAILED:\n  ${[...new Set(problems)].slice(0, 20).join("\n  ")}`);
    process.exitCode = 1;
  }
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** What a round must have produced; returns what went wrong. */
function check(workload: ReturnType<typeof buildWorkload>, results: Map<string, RoundResult>, round: number): string[] {
  const problems: string[] = [];
  for (const [name, result] of results) {
    if (result.events !== workload.events) problems.push(`round ${round}: ${name} saw ${result.events} events, expected ${workload.events}`);
  }
  const ref = results.get("reference")!;
  for (const name of ["tether", "tether-agent"]) {
    const other = results.get(name);
    if (!other) continue;
    if (other.messages!.length !== workload.runs.length)
      problems.push(`round ${round}: ${name} finished ${other.messages!.length} runs of ${workload.runs.length}`);
    workload.runs.forEach((run, index) => {
      const expected = digest(ref.messages![index]!);
      const actual = digest(other.messages![index] ?? []);
      if (expected !== actual)
        problems.push(
          `round ${round}: run ${run.runId}: ${name}'s final messages differ from the reference's:\n    reference ${expected.slice(0, 300)}\n    ${name} ${actual.slice(0, 300)}`,
        );
      // user + 2 assistant texts + tool results: never empty
      if ((ref.messages![index] ?? []).length < 4)
        problems.push(`round ${round}: run ${run.runId}: the reference built only ${(ref.messages![index] ?? []).length} messages`);
    });
  }
  const t = results.get("tether")!;
  if (t.executed !== workload.browserCalls) problems.push(`round ${round}: the browser tool ran ${t.executed} times, expected ${workload.browserCalls}`);
  const browser = t.activities!.filter((activity) => activity.location === "browser");
  const server = t.activities!.filter((activity) => activity.location === "server");
  if (browser.length !== workload.browserCalls || browser.some((activity) => activity.status !== "succeeded")) {
    problems.push(
      `round ${round}: browser calls in the timeline: ${browser.length} (${[...new Set(browser.map((a) => a.status))].join(", ")}), expected ${workload.browserCalls} succeeded`,
    );
  }
  if (server.length !== workload.serverCalls || server.some((activity) => activity.status !== "done")) {
    problems.push(
      `round ${round}: server calls in the timeline: ${server.length} (${[...new Set(server.map((a) => a.status))].join(", ")}), expected ${workload.serverCalls} done`,
    );
  }
  return problems;
}

function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 10));
}

await main();
gcObserver.disconnect();
// The dispatch rounds' sessions each hold a BroadcastChannel for their thread's other tabs, which keeps Node running: done.
process.exit();
