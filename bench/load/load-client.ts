/**
 * The load client of `bench/load`, a process of its own so that its work
 * does not land on the server it measures. It opens `runs` runs, spread
 * evenly over `rampMs`, each a new thread whose user message asks the paced
 * model for `tokens` tokens at `tokensPerSecond`; it reads every stream with
 * node:http on keep-alive sockets and a minimal SSE split, and stamps each
 * TEXT_MESSAGE_CONTENT with the time its bytes arrived. At the end it asks
 * the model when each token left and reports the difference.
 *
 * Started by `run-load.ts` with an IPC channel: it gets a `LoadConfig` in
 * BENCH_LOAD_CONFIG and sends `{ type: "open", count }` every 250 ms (runs
 * whose RUN_STARTED arrived and whose stream has not ended),
 * `{ type: "all-done" }` when the last stream ends, and
 * `{ type: "result", result: LoadResult }`.
 */
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseSseFrame } from "@tether-agent/tether/testing";
import type { SentReport } from "./paced-model.ts";
import { measureClockOffset } from "./measure-clock-offset.ts";
import { percentiles, type Percentiles } from "./percentiles.ts";
import { wallClock } from "./wall-clock.ts";

export interface LoadConfig {
  /** POST target taking a plain RunAgentInput. */
  runUrl: string;
  /** The Authorization header, when the server wants one. */
  authorization?: string;
  /** The paced model's base URL (for /clock and /sent). */
  modelUrl: string;
  runs: number;
  tokens: number;
  tokensPerSecond: number;
  rampMs: number;
  /** The server names each SSE event `id: <runId>:<seq>` (Tether): check that seq runs 1, 2, 3… */
  sequenced: boolean;
  /** A stream silent this long fails. */
  silenceTimeoutMs: number;
}

export interface LoadResult {
  runs: number;
  ok: number;
  failures: Record<string, number>;
  firstFailure?: string;
  /** Model token written → its event read by the client, over every token of every run. */
  delayMs: Percentiles;
  /** Request sent → RUN_STARTED read. */
  startMs: Percentiles;
  /** Most runs streaming at one time, as this client saw them. */
  maxOpen: number;
  /** Runs whose RUN_STARTED this client read. */
  started: number;
  /** Only for a sequenced server: seq numbers skipped, and seen again. */
  events: { checked: boolean; lost: number; duplicated: number };
  /** Token indices of the runs that started that never arrived, arrived twice, or arrived before an earlier one. */
  tokens: { lost: number; duplicated: number; outOfOrder: number };
  /** Tokens the model wrote for runs whose client never saw them start (it gave up first): work the server did for nobody. */
  unseenTokens: number;
  /** The model's clock minus this process's, and the round trip it was read in. */
  clock: { offsetMs: number; roundTripMs: number };
  model: Omit<SentReport, "streams">;
  /** Tokens per second each answer really streamed at (median over runs). */
  achievedTokensPerSecond: number;
  /** This client's event-loop delay (p99, ms): high means the client, not the server, held events back. */
  clientLoopDelayP99Ms: number;
  /** CPU this client used, ms. */
  clientCpuMs: number;
  wallSeconds: number;
}

interface Stream {
  runId: string;
  received: Float64Array;
  counts: Uint16Array;
  sentAt: number;
  startedAt?: number;
  lastSeq: number;
  lastIndex: number;
  outOfOrder: number;
  lost: number;
  duplicated: number;
  firstType?: string;
  lastType?: string;
  failure?: string;
}

const config = JSON.parse(process.env.BENCH_LOAD_CONFIG!) as LoadConfig;
const TOKEN = /w(\d+)/g;
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const send = (message: object) => process.send?.(message);

let open = 0;
let maxOpen = 0;

function onFrame(stream: Stream, block: string, at: number) {
  const frame = parseSseFrame(block);
  if (frame.id !== undefined && config.sequenced) checkSeq(stream, frame.id);
  if (frame.data === undefined) return;
  const event = frame.data as { type: string; delta?: string; message?: string };
  stream.firstType ??= event.type;
  stream.lastType = event.type;
  if (event.type === "RUN_STARTED" && stream.startedAt === undefined) {
    stream.startedAt = at;
    maxOpen = Math.max(maxOpen, ++open);
  } else if (event.type === "TEXT_MESSAGE_CONTENT") {
    for (const [, digits] of event.delta!.matchAll(TOKEN)) {
      const index = Number(digits);
      if (index >= config.tokens) continue; // not one of the model's tokens
      if (stream.counts[index]!++ === 0) stream.received[index] = at;
      if (index < stream.lastIndex) stream.outOfOrder++;
      stream.lastIndex = index;
    }
  } else if (event.type === "RUN_ERROR") {
    stream.failure ??= `RUN_ERROR ${event.message ?? ""}`.slice(0, 200);
  }
}

function checkSeq(stream: Stream, id: string) {
  const colon = id.lastIndexOf(":");
  if (id.slice(0, colon) !== stream.runId) stream.failure ??= `event id ${id} names another run`;
  const seq = Number(id.slice(colon + 1));
  if (seq <= stream.lastSeq) stream.duplicated++;
  else stream.lost += seq - stream.lastSeq - 1;
  stream.lastSeq = Math.max(stream.lastSeq, seq);
}

function run(): Promise<Stream> {
  const runId = randomUUID();
  const stream: Stream = {
    runId,
    received: new Float64Array(config.tokens).fill(Number.NaN),
    counts: new Uint16Array(config.tokens),
    sentAt: wallClock(),
    lastSeq: 0,
    lastIndex: -1,
    outOfOrder: 0,
    lost: 0,
    duplicated: 0,
  };
  // A thread per run: a thread runs one run at a time.
  const body = JSON.stringify({
    threadId: `load-${runId}`,
    runId,
    messages: [{ id: `m-${runId}`, role: "user", content: `Write at length. [load ${runId} ${config.tokens} ${config.tokensPerSecond}]` }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  });
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (config.authorization) headers.authorization = config.authorization;
  return new Promise((resolve) => {
    let settled = false;
    const done = (failure?: string) => {
      if (settled) return;
      settled = true;
      if (failure) stream.failure ??= failure;
      if (stream.startedAt !== undefined) open--;
      resolve(stream);
    };
    const outgoing = request(config.runUrl, { method: "POST", agent, headers }, (response) => {
      response.setEncoding("utf8");
      if (response.statusCode !== 200) {
        let text = "";
        response.on("data", (part: string) => (text += part));
        response.on("end", () => done(`HTTP ${response.statusCode} ${text.slice(0, 160)}`));
        return;
      }
      let buffer = "";
      response.on("data", (text: string) => {
        const at = wallClock();
        buffer += text;
        let start = 0;
        for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n", start)) {
          onFrame(stream, buffer.slice(start, end), at);
          start = end + 2;
        }
        buffer = buffer.slice(start);
      });
      response.on("end", () => done(stream.lastType === "RUN_FINISHED" ? undefined : `stream ended after ${stream.lastType ?? "no event"}`));
      response.on("error", (error) => done(`stream ${error.message}`));
    });
    outgoing.setTimeout(config.silenceTimeoutMs, () => outgoing.destroy(new Error(`silent for ${config.silenceTimeoutMs} ms`)));
    outgoing.on("error", (error) => done(`request ${error.message}`));
    outgoing.end(body);
  });
}

function getJson<T>(url: string): Promise<T> {
  return new Promise((resolve, reject) => {
    request(url, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (part: string) => (text += part));
      response.on("end", () => resolve(JSON.parse(text) as T));
    })
      .on("error", reject)
      .end();
  });
}

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const reporter = setInterval(() => send({ type: "open", count: open }), 250);
const started = performance.now();
const streams = await Promise.all(
  Array.from({ length: config.runs }, (_, index) => new Promise<Stream>((resolve) => setTimeout(() => resolve(run()), (index * config.rampMs) / config.runs))),
);
const wallSeconds = (performance.now() - started) / 1000;
clearInterval(reporter);
send({ type: "all-done" });
loopDelay.disable();
agent.destroy();

const clock = await measureClockOffset(`${config.modelUrl}/clock`);
const { streams: sent, ...model } = await getJson<SentReport>(`${config.modelUrl}/sent`);
const delays: number[] = [];
const rates: number[] = [];
const failures: Record<string, number> = {};
let firstFailure: string | undefined;
const tokens = { lost: 0, duplicated: 0, outOfOrder: 0 };
let unseenTokens = 0;
for (const stream of streams) {
  if (!stream.failure && stream.firstType !== "RUN_STARTED") stream.failure = `first event ${stream.firstType}`;
  if (stream.failure) {
    const kind = stream.failure.replace(/[0-9a-f-]{36}/g, "<id>").slice(0, 60);
    failures[kind] = (failures[kind] ?? 0) + 1;
    firstFailure ??= stream.failure;
  }
  tokens.outOfOrder += stream.outOfOrder;
  const times = sent[stream.runId];
  for (let index = 0; index < config.tokens; index++) {
    const count = stream.counts[index]!;
    // A run that never started is a failure, counted as one; a started run that misses a token lost it.
    if (count === 0 && stream.startedAt !== undefined) tokens.lost++;
    else if (count > 1) tokens.duplicated += count - 1;
    const sentAt = times?.[index];
    if (stream.startedAt === undefined && sentAt != null) unseenTokens++;
    if (count > 0 && sentAt != null) delays.push(stream.received[index]! - (sentAt - clock.offsetMs));
  }
  const first = times?.[0];
  const last = times?.[config.tokens - 1];
  if (first != null && last != null && last > first) rates.push(((config.tokens - 1) * 1000) / (last - first));
}
const result: LoadResult = {
  runs: config.runs,
  ok: streams.filter((stream) => !stream.failure).length,
  failures,
  ...(firstFailure ? { firstFailure } : {}),
  delayMs: percentiles(delays),
  startMs: percentiles(streams.flatMap((stream) => (stream.startedAt === undefined ? [] : [stream.startedAt - stream.sentAt]))),
  maxOpen,
  started: streams.filter((stream) => stream.startedAt !== undefined).length,
  events: {
    checked: config.sequenced,
    lost: streams.reduce((sum, stream) => sum + stream.lost, 0),
    duplicated: streams.reduce((sum, stream) => sum + stream.duplicated, 0),
  },
  tokens,
  unseenTokens,
  clock,
  model,
  achievedTokensPerSecond: percentiles(rates).p50,
  clientLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
  clientCpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  wallSeconds,
};
send({ type: "result", result });
process.disconnect?.();
