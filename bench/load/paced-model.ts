/**
 * The model of `bench/load`, as a process of its own: the OpenAI Chat
 * Completions wire (SSE) answering every request with plain text, paced,
 * and remembering when each token left.
 *
 * Not aimock: its streaming profile paces chunks (`tps`), but a fixture's
 * text is fixed when it is registered and nothing tells which chunk left
 * when, for which request. The load client would have to guess each send
 * time from a schedule, and with a thousand streams (30,000 writes a second)
 * the mock's own timers run late, so the guess would charge the mock's
 * lateness to the server under test. Here each token is stamped as it is
 * written, and the stamps are fetched afterwards.
 *
 * The user message says what to answer: `[load <key> <tokens> <tokensPerSecond>]`.
 * Token i is ` w<i>` (`w0` first), one token per chunk, so the client can tell
 * which token an event carries. A request without that gets one token at once.
 *
 *   node --import tsx bench/load/paced-model.ts     prints "listening <url>" (OpenAI clients: <url>/v1)
 *
 *   POST …/chat/completions  the answer (stream only)
 *   GET /clock               this process's wallClock(), for the offset between processes
 *   GET /sent                `SentReport` for the answers since the last call, which it then forgets
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { wallClock } from "./wall-clock.ts";

/** What `GET /sent` returns. */
export interface SentReport {
  /** Per key, when each token was written (wallClock ms); null for a token never written (the stream was closed first). */
  streams: Record<string, Array<number | null>>;
  requests: number;
  /** Requests without a `[load …]` ask. */
  unmatched: number;
  /** Keys asked more than once: a run that called the model twice. */
  repeatedKeys: number;
  /** Most answers streaming at one time: fewer than the runs means the server under test queued its model calls. */
  maxOpenStreams: number;
  /** How late this process's timers wrote tokens against their schedule, ms. */
  lateMs: { p50: number; p99: number; max: number };
}

const ASK = /\[load (\S+) (\d+) (\d+(?:\.\d+)?)\]/;
const CHUNK_HEAD = `data: {"id":"chatcmpl-load","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o-mini","choices":[{"index":0,"delta":`;

let streams = new Map<string, Float64Array>();
let requests = 0;
let unmatched = 0;
let repeatedKeys = 0;
let openStreams = 0;
let maxOpenStreams = 0;
let late: number[] = [];

const chunk = (delta: string, finishReason: string | null) => `${CHUNK_HEAD}${delta},"finish_reason":${finishReason ? `"${finishReason}"` : "null"}}]}\n\n`;

function answer(body: string, response: ServerResponse) {
  requests++;
  const ask = ASK.exec(body);
  if (!ask) unmatched++;
  const tokens = ask ? Number(ask[2]) : 1;
  const interval = ask ? 1000 / Number(ask[3]) : 0;
  const sent = new Float64Array(tokens).fill(Number.NaN);
  if (ask) {
    if (streams.has(ask[1]!)) repeatedKeys++;
    streams.set(ask[1]!, sent);
  }
  openStreams++;
  maxOpenStreams = Math.max(maxOpenStreams, openStreams);
  let timer: NodeJS.Timeout | undefined;
  response.once("close", () => {
    clearTimeout(timer);
    openStreams--;
  });
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  response.write(chunk(`{"role":"assistant","content":""}`, null));
  const started = performance.now();
  let index = 0;
  const write = (due: number) => {
    if (response.destroyed) return;
    late.push(performance.now() - due);
    sent[index] = wallClock();
    response.write(chunk(`{"content":"${index === 0 ? "" : " "}w${index}"}`, null));
    index++;
    if (index < tokens) return schedule();
    const usage = `{"prompt_tokens":20,"completion_tokens":${tokens},"total_tokens":${tokens + 20}}`;
    response.end(`${chunk("{}", "stop")}data: {"id":"chatcmpl-load","object":"chat.completion.chunk","choices":[],"usage":${usage}}\n\ndata: [DONE]\n\n`);
  };
  // Each token is due one interval after the one before, on a schedule from the start, so a late timer does not push back the rest.
  const schedule = () => {
    const due = started + (index + 1) * interval;
    timer = setTimeout(write, Math.max(0, due - performance.now()), due);
  };
  schedule();
}

function report(response: ServerResponse) {
  const sorted = Float64Array.from(late).sort();
  const at = (fraction: number) => (sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!.toFixed(2) : 0);
  const result: SentReport = {
    streams: Object.fromEntries([...streams].map(([key, times]) => [key, Array.from(times, (time) => (Number.isNaN(time) ? null : +time.toFixed(3)))])),
    requests,
    unmatched,
    repeatedKeys,
    maxOpenStreams,
    lateMs: { p50: at(0.5), p99: at(0.99), max: at(1) },
  };
  streams = new Map();
  late = [];
  requests = unmatched = repeatedKeys = 0;
  maxOpenStreams = openStreams;
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (part: string) => (body += part));
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

const server = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/clock") return void response.end(String(wallClock()));
  if (request.method === "GET" && request.url === "/sent") return report(response);
  if (request.method === "POST" && request.url?.endsWith("/chat/completions")) {
    return void readBody(request).then(
      (body) => answer(body, response),
      () => response.destroy(),
    );
  }
  response.writeHead(404).end();
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as { port: number };
  console.log(`listening http://127.0.0.1:${port}`);
});
process.once("SIGTERM", () => process.exit(0));
