/**
 * What Tether costs in front of an AG-UI agent it does not run. The same runs
 * are read straight from the agent (aimock's AG-UI endpoint playing it, the
 * baseline) and through a Tether agent whose `upstream` is that endpoint, with
 * the durable store on (SQLite in a temporary folder), alternating in one run.
 * Everything shares this process, so the CPU the baseline spends (client and
 * agent) is also spent through Tether: the difference is Tether's, per event.
 * Latency is the time to a run's first event and to its end, at CONCURRENCY.
 *
 *   npm run bench:upstream            (RUNS=200 CONCURRENCY=8 EVENTS=300 ROUNDS=2)
 *
 * Not part of `npm test`: the numbers depend on the machine.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { AGUIMock, type AGUIEvent } from "@copilotkit/aimock";
import { createTetherApp, defineAgent, silentLogger } from "@tether-agent/tether/server";
import { listen } from "@tether-agent/tether/node";

const RUNS = Number(process.env.RUNS ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const EVENTS = Number(process.env.EVENTS ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 2);

/** One answer of EVENTS text deltas, as an agent streams a model's tokens. */
function answer(): AGUIEvent[] {
  const deltas = Array.from({ length: EVENTS }, (_, index): AGUIEvent => ({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: `token ${index} ` }));
  return [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
    ...deltas,
    { type: "TEXT_MESSAGE_END", messageId: "m1" },
    { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  ];
}

const upstream = new AGUIMock({ port: 0, logLevel: "silent" });
upstream.addFixture({ match: { message: "stream" }, events: answer() });
await upstream.start();

const dataDir = mkdtempSync(join(tmpdir(), "tether-bench-upstream-"));
const tether = await createTetherApp({
  agents: [defineAgent({ id: "front", upstream: { url: upstream.url } })],
  authenticate: () => ({ id: "bench" }),
  dataDir,
  logger: silentLogger,
});
const server = await listen(tether.app, { port: 0, host: "127.0.0.1" });

interface Timing {
  firstMs: number;
  endMs: number;
  events: number;
}

/** One run: POST, read the SSE body to its end, count its events. */
async function runOnce(url: string, index: number): Promise<Timing> {
  const threadId = `bench-${process.pid}-${index}-${Math.random().toString(36).slice(2)}`;
  const started = performance.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({
      threadId,
      runId: `${threadId}-r`,
      messages: [{ id: "u1", role: "user", content: "stream" }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let firstMs = -1;
  let events = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstMs < 0) firstMs = performance.now() - started;
    events += decoder.decode(value, { stream: true }).split("\n\n").length - 1;
  }
  return { firstMs, endMs: performance.now() - started, events };
}

/** RUNS runs at CONCURRENCY against `url`: their timings, and the CPU this process spent. */
async function measure(url: string): Promise<{ timings: Timing[]; cpuUs: number; wallMs: number }> {
  const timings: Timing[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < RUNS) timings.push(await runOnce(url, next++));
    }),
  );
  const spent = process.cpuUsage(cpu);
  return { timings, cpuUs: spent.user + spent.system, wallMs: performance.now() - started };
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

const direct = upstream.url;
const through = `${server.url}/api/agents/front/run`;
// Warm both paths (JIT, the store's statements) before anything is timed.
for (const url of [direct, through]) for (let index = 0; index < 20; index++) await runOnce(url, -index);

console.log(`bench:upstream: ${RUNS} runs of ${EVENTS} text events at ${CONCURRENCY} at a time, ${ROUNDS} rounds, SQLite store on`);
for (let round = 1; round <= ROUNDS; round++) {
  const baseline = await measure(direct);
  const tethered = await measure(through);
  const baseEvents = baseline.timings.reduce((sum, timing) => sum + timing.events, 0);
  const tetherEvents = tethered.timings.reduce((sum, timing) => sum + timing.events, 0);
  const cpuPerEvent = (result: typeof baseline, events: number) => result.cpuUs / events;
  const added = cpuPerEvent(tethered, tetherEvents) - cpuPerEvent(baseline, baseEvents);
  const p50 = (result: typeof baseline, key: "firstMs" | "endMs") =>
    quantile(
      result.timings.map((timing) => timing[key]),
      0.5,
    );
  console.log(
    [
      `round ${round}:`,
      `  CPU per event: direct ${cpuPerEvent(baseline, baseEvents).toFixed(1)} µs, through Tether ${cpuPerEvent(tethered, tetherEvents).toFixed(1)} µs (Tether's share ${added.toFixed(1)} µs, ${(cpuPerEvent(tethered, tetherEvents) / cpuPerEvent(baseline, baseEvents)).toFixed(2)}× the baseline)`,
      `  first event p50: direct ${p50(baseline, "firstMs").toFixed(1)} ms, through Tether ${p50(tethered, "firstMs").toFixed(1)} ms (+${(p50(tethered, "firstMs") - p50(baseline, "firstMs")).toFixed(1)} ms)`,
      `  run end p50: direct ${p50(baseline, "endMs").toFixed(1)} ms, through Tether ${p50(tethered, "endMs").toFixed(1)} ms (+${(((p50(tethered, "endMs") - p50(baseline, "endMs")) / EVENTS) * 1000).toFixed(0)} µs per event)`,
      `  events per run: direct ${(baseEvents / RUNS).toFixed(0)}, through Tether ${(tetherEvents / RUNS).toFixed(0)}`,
    ].join("\n"),
  );
}

await server.close();
await tether.close();
await upstream.stop();
rmSync(dataDir, { recursive: true, force: true });
