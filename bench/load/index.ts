/**
 * Many open, slow streams: BENCH_LOAD_RUNS (1,000) concurrent runs, each a
 * model answer of BENCH_LOAD_TOKENS (600) tokens at BENCH_LOAD_TPS (30)
 * tokens/s, started evenly over BENCH_LOAD_RAMP_MS (5 s; a run silent for
 * BENCH_LOAD_SILENCE_MS, 30 s, fails), through
 *   - Tether: the demo server (SQLite, demo sign-in, the Workdesk agent on
 *     TETHER_MODEL=openai:gpt-4o-mini) as a process of its own, and
 *   - the CopilotKit runtime peer of ../shared/peer-bench (BENCH_PEER_DIR;
 *     its packages in PEERS_INSTALL, default /tmp/tether-peer-bench), when
 *     it is there,
 * one after the other in one run (BENCH_LOAD_ROUNDS times), both on the same
 * paced OpenAI-wire model (`paced-model.ts`, a process of its own) and read
 * by the same client (`load-client.ts`, a process of its own).
 *
 * Prints, per server: the delay it adds between the model writing a token
 * and the client reading its event (p50/p99), RSS per open run, CPU per run,
 * lost or duplicated events and tokens; and Tether's figures over the peer's.
 * Not part of `npm test`: it takes a minute and both cores.
 *
 *   npm run bench:load
 *   BENCH_LOAD_RUNS=200 npm run bench:load
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { freePort } from "../../test/helpers/server-process.ts";
import type { LoadConfig } from "./load-client.ts";
import { printReport, type Measured } from "./report.ts";
import { runLoad } from "./run-load.ts";
import { startNodeFlags, startProcess, type StartedProcess } from "./start-process.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const RUNS = Number(process.env.BENCH_LOAD_RUNS ?? 1000);
const TOKENS = Number(process.env.BENCH_LOAD_TOKENS ?? 600);
const TPS = Number(process.env.BENCH_LOAD_TPS ?? 30);
const RAMP_MS = Number(process.env.BENCH_LOAD_RAMP_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_LOAD_ROUNDS ?? 1);
/** A run whose connection stays silent this long fails, as a user would give up on it. */
const SILENCE_MS = Number(process.env.BENCH_LOAD_SILENCE_MS ?? 30_000);
const PEER_DIR = process.env.BENCH_PEER_DIR ?? resolve(ROOT, "../shared/peer-bench");
const PEERS_INSTALL = process.env.PEERS_INSTALL ?? "/tmp/tether-peer-bench";

interface Contender {
  name: string;
  server: StartedProcess;
  config: Pick<LoadConfig, "runUrl" | "authorization" | "sequenced">;
}

function peerMissing(): string | undefined {
  if (!existsSync(join(PEER_DIR, "copilotkit-peer.mjs"))) return `no ${join(PEER_DIR, "copilotkit-peer.mjs")} (set BENCH_PEER_DIR)`;
  if (!existsSync(join(PEERS_INSTALL, "node_modules/@copilotkit/runtime")))
    return `CopilotKit's runtime is not installed in ${PEERS_INSTALL} (set PEERS_INSTALL, or run ${join(PEER_DIR, "run.sh")} once to install it)`;
  return undefined;
}

const started: StartedProcess[] = [];
const dataDir = mkdtempSync(join(tmpdir(), "tether-bench-load-"));
try {
  const model = await startProcess("paced model", ["--conditions=tether-source", "--import", "tsx", "bench/load/paced-model.ts"], {
    env: process.env,
    ready: /listening (\S+)/,
  });
  started.push(model);
  const modelEnv = { OPENAI_BASE_URL: `${model.url}/v1`, OPENAI_API_KEY: "mock" };
  // Node's flags as `npm start` gives them (package.json).
  const tether = await startProcess("Tether", [...startNodeFlags, "--conditions=tether-source", "--import", "tsx", "bench/load/demo-server.ts"], {
    env: { ...process.env, ...modelEnv, TETHER_DATA_DIR: dataDir, TETHER_MODEL: "openai:gpt-4o-mini" },
    ready: /listening (\S+)/,
  });
  started.push(tether);
  const login = await fetch(`${tether.url}/api/demo/login`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"user":"kim"}' });
  const { token } = (await login.json()) as { token: string };
  const contenders: Contender[] = [
    { name: "Tether", server: tether, config: { runUrl: `${tether.url}/api/agents/workdesk/run`, authorization: `Bearer ${token}`, sequenced: true } },
  ];
  const missing = peerMissing();
  if (missing) console.log(`The CopilotKit peer is skipped: ${missing}.`);
  else {
    const peer = await startProcess("CopilotKit peer", [join(PEER_DIR, "copilotkit-peer.mjs")], {
      env: { ...process.env, ...modelEnv, PORT: String(await freePort()), PEERS_INSTALL },
      ready: /listening on (http:\S+)/,
    });
    started.push(peer);
    contenders.push({ name: "CopilotKit runtime 1.75", server: peer, config: { runUrl: `${peer.url}/agent/workdesk/run`, sequenced: false } });
  }

  const load = (contender: Contender, shape: Pick<LoadConfig, "runs" | "tokens" | "tokensPerSecond" | "rampMs">) =>
    runLoad({ ...contender.config, ...shape, modelUrl: model.url, silenceTimeoutMs: SILENCE_MS }, { server: contender.server.pid, model: model.pid });
  for (const contender of contenders) {
    const warm = await load(contender, { runs: 100, tokens: 20, tokensPerSecond: 200, rampMs: 500 });
    if (warm.result.ok !== warm.result.runs) throw new Error(`${contender.name} failed its warm-up: ${warm.result.firstFailure}`);
  }
  console.log(
    `${RUNS} concurrent runs × ${TOKENS} tokens at ${TPS} tokens/s, started over ${RAMP_MS} ms; ${ROUNDS} round(s); ` +
      `node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? "unknown CPU"})`,
  );
  for (let round = 1; round <= ROUNDS; round++) {
    const measured: Measured[] = [];
    for (const contender of contenders) {
      await sleep(3000); // the previous load's runs are stored and its sockets closed
      measured.push({ name: contender.name, measurement: await load(contender, { runs: RUNS, tokens: TOKENS, tokensPerSecond: TPS, rampMs: RAMP_MS }) });
    }
    if (ROUNDS > 1) console.log(`\nRound ${round}`);
    printReport(measured);
  }
} finally {
  for (const child of started.reverse()) await child.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
