/**
 * Where a story's CPU goes: the model provider's path against the rest of the server's work.
 * The two-turn Workdesk story (three model calls, two runs, the browser's
 * outcome in between) at BENCH_CONCURRENCY (32) concurrent stories against
 * two demo servers run as `npm start` runs it (its Node flags, SQLite, demo
 * sign-in), side by side, in alternating rounds of BENCH_STORIES (1000):
 *   - both agents on `openai:gpt-4o-mini` through the AI SDK's OpenAI
 *     provider, answered by aimock on the Chat Completions wire (the
 *     project's story fixtures, test/providers/story-fixtures.ts, no delay),
 *     the kind of work the peer harness measures;
 *   - the same model's answers replayed from memory after the first call of
 *     each kind (`replay-model.ts`): the same parts reach the runtime, in the
 *     same turns of the event loop, with no HTTP request and no stream to parse.
 * CPU per story is each server process's, from /proc (median of the rounds);
 * the difference is what the provider path costs, the rest is everything
 * else the server does. The client (plain HTTP, `story-client.ts`) and
 * aimock run in this process.
 *
 *   npm run bench:story
 *   BENCH_STORIES=300 BENCH_ROUNDS=2 npm run bench:story
 */
import { LLMock } from "@copilotkit/aimock";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tokenFor } from "../../test/helpers/server-process.ts";
import { PROVIDER_WIRES } from "../../test/providers/provider-wires.ts";
import { addStoryFixtures } from "../../test/providers/story-fixtures.ts";
import { processCpuMs } from "../instances/proc-cpu.ts";
import { percentiles } from "../load/percentiles.ts";
import { startNodeFlags, startProcess, type StartedProcess } from "../load/start-process.ts";
import { createStoryClient } from "./story-client.ts";

const STORIES = Number(process.env.BENCH_STORIES ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP = 200;
const SECRET = "bench-story";

interface Round {
  storiesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMs: number;
}

const mock = new LLMock({ port: 0, latency: 0 });
addStoryFixtures(
  mock,
  PROVIDER_WIRES.find((wire) => wire.name === "openai")!,
);
await mock.start();
const dataDir = mkdtempSync(join(tmpdir(), "tether-bench-story-"));
const servers: StartedProcess[] = [];
const start = async (name: string, replay: boolean) => {
  const server = await startProcess(name, [...startNodeFlags, "--conditions=tether-source", "--import", "tsx", "bench/story/story-server.ts"], {
    env: {
      ...process.env,
      TETHER_DATA_DIR: join(dataDir, replay ? "replay" : "wire"),
      OPENAI_BASE_URL: `${mock.url}/v1`,
      STORY_REPLAY: replay ? "1" : "0",
      STORY_SECRET: SECRET,
    },
    ready: /listening (http:\/\/\S+)/,
  });
  servers.push(server);
  return server;
};

try {
  const contenders = [
    { name: "OpenAI wire (aimock)", server: await start("Tether on the OpenAI wire", false) },
    { name: "replayed from memory", server: await start("Tether on replayed answers", true) },
  ];
  const token = tokenFor("kim", SECRET);
  console.log(`The two-turn Workdesk story, ${STORIES} stories × ${ROUNDS} rounds at ${CONCURRENCY} concurrent, node ${process.version}`);
  const clients = new Map(contenders.map(({ server }) => [server, createStoryClient(server.url, token, CONCURRENCY)]));
  /** Plays `count` stories, `concurrency` at a time; stops at the first that fails. */
  const play = async (server: StartedProcess, count: number, concurrency: number) => {
    const playStory = clients.get(server)!;
    const durations: number[] = [];
    let next = 0;
    const started = performance.now();
    const player = async () => {
      while (next++ < count) {
        try {
          durations.push(await playStory());
        } catch (error) {
          throw new Error(`${server.name}: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, player));
    const seconds = (performance.now() - started) / 1000;
    const { p50, p99 } = percentiles(durations);
    return { storiesPerSecond: durations.length / seconds, p50Ms: p50, p99Ms: p99 };
  };
  for (const { server } of contenders) await play(server, WARM_UP, 8);

  const measure = async (server: StartedProcess): Promise<Round> => {
    const before = processCpuMs(server.pid);
    const result = await play(server, STORIES, CONCURRENCY);
    return { ...result, cpuMs: (processCpuMs(server.pid) - before) / STORIES };
  };
  const rounds = contenders.map(() => [] as Round[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { server }] of contenders.entries()) rounds[index]!.push(await measure(server));
  }

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = sorted.length / 2;
    return Number.isInteger(middle) ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[Math.floor(middle)]!;
  };
  const rows = contenders.map(({ name }, index) => {
    const of = (key: keyof Round) => median(rounds[index]!.map((round) => round[key]));
    return { name, storiesPerSecond: of("storiesPerSecond"), p50Ms: of("p50Ms"), p99Ms: of("p99Ms"), cpuMs: of("cpuMs") };
  });
  console.log("");
  console.log("| model | stories/s | p50 ms | p99 ms | server CPU ms/story (median of rounds) |");
  console.log("|---|---|---|---|---|");
  for (const row of rows) {
    console.log(`| ${row.name} | ${row.storiesPerSecond.toFixed(1)} | ${row.p50Ms.toFixed(0)} | ${row.p99Ms.toFixed(0)} | ${row.cpuMs.toFixed(2)} |`);
  }
  const [wire, replay] = rows as [(typeof rows)[number], (typeof rows)[number]];
  const provider = wire.cpuMs - replay.cpuMs;
  console.log("");
  console.log(
    `The provider path (HTTP to the model, the AI SDK's stream parsing): ${provider.toFixed(2)} ms a story, ${((100 * provider) / wire.cpuMs).toFixed(0)}% of it.`,
  );
  console.log(
    `The rest (Tether's code, Node's HTTP server, the store, the garbage collector): ${replay.cpuMs.toFixed(2)} ms a story, ${((100 * replay.cpuMs) / wire.cpuMs).toFixed(0)}%.`,
  );
} finally {
  await Promise.all(servers.map((server) => server.stop()));
  await mock.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
