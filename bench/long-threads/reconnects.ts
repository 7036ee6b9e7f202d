/**
 * What a long stateless thread costs a server on every reconnect: a Recipes-
 * like thread of 100 runs whose history grows to about 560 KB (the client
 * sends it whole each turn), then 32 reconnect loops, each as a reloaded page
 * does it (GET the thread, its chain of runs, and its events from the last
 * id it holds). Measured twice in fresh processes on the same SQLite file:
 * "before", a store that hands out every run's request with the run, as the
 * stores did (listRuns, getRun and getActiveRun carried `input`); "after",
 * the store as it is. Prints each one's peak RSS and time, and after / before.
 *
 *   npx tsx --conditions=tether-source bench/long-threads/reconnects.ts
 *
 * Not part of `npm test`: the numbers depend on the machine.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { createTetherApp, defineAgent, silentLogger } from "@tether-agent/tether/server";
import type { RunStore } from "@tether-agent/tether/store";
import { createScriptedModel } from "@tether-agent/tether/testing";

const RUNS = Number(process.env.RUNS ?? 100);
const LOOPS = Number(process.env.LOOPS ?? 32);
const MESSAGE_CHARS = Number(process.env.MESSAGE_CHARS ?? 2800);
const THREAD = "long-recipes";

const [mode, filename] = process.argv.slice(2);
if (mode === "before" || mode === "after") await measure(mode, filename!);
else await compare();

async function compare() {
  const folder = mkdtempSync(join(tmpdir(), "tether-bench-long-"));
  const file = join(folder, "tether.db");
  const sent = await buildThread(file);
  console.log(`thread: ${RUNS} runs, last request ${(sent.last / 1024).toFixed(0)} KB, all requests ${(sent.total / 1024 / 1024).toFixed(1)} MB`);
  const results: Record<string, Array<{ rssMiB: number; baseMiB: number; ms: number }>> = { before: [], after: [] };
  // Alternated, twice each: a machine busy for a while weighs on both.
  for (const which of ["before", "after", "before", "after"] as const) {
    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), which, file], { encoding: "utf8", timeout: 600_000 });
    if (child.status !== 0) throw new Error(`${which} failed: ${child.stderr}`);
    results[which]!.push(JSON.parse(child.stdout.trim().split("\n").at(-1)!));
  }
  for (const which of ["before", "after"] as const) {
    for (const run of results[which]!) {
      console.log(`${which.padEnd(6)} ${LOOPS} loops: peak RSS ${run.rssMiB.toFixed(0)} MiB (from ${run.baseMiB.toFixed(0)}), ${run.ms.toFixed(0)} ms`);
    }
  }
  const mean = (which: string, key: "rssMiB" | "ms") => results[which]!.reduce((sum, run) => sum + run[key], 0) / results[which]!.length;
  const growth = (which: string) => results[which]!.reduce((sum, run) => sum + run.rssMiB - run.baseMiB, 0) / results[which]!.length;
  console.log(
    `after / before: peak RSS ${(mean("after", "rssMiB") / mean("before", "rssMiB")).toFixed(3)}×, RSS growth ${(growth("after") / growth("before")).toFixed(3)}×, time ${(mean("after", "ms") / mean("before", "ms")).toFixed(3)}×`,
  );
  rmSync(folder, { recursive: true, force: true });
}

/** Stores the thread as 100 stateless runs would: each run's request the whole history so far. */
async function buildThread(file: string): Promise<{ last: number; total: number }> {
  const store = createSqliteRunStore({ filename: file });
  const history: Message[] = [];
  let total = 0;
  let last = 0;
  for (let turn = 1; turn <= RUNS; turn++) {
    const words = `turn ${turn}: ${"what else could I cook with the rice and the onions that are left? ".repeat(MESSAGE_CHARS / 60)}`.slice(0, MESSAGE_CHARS);
    const user: Message = { id: `u${turn}`, role: "user", content: words };
    history.push(user);
    const runId = `r${turn}`;
    const input = { threadId: THREAD, runId, state: {}, messages: [...history], tools: [], context: [], forwardedProps: {} };
    last = JSON.stringify(input).length;
    total += last;
    const event = (seq: number, body: Record<string, unknown>) => ({ seq, event: { ...body, threadId: THREAD, runId } as unknown as BaseEvent });
    await store.beginRun({
      thread: { threadId: THREAD, agentId: "recipes", ownerId: "sam" },
      run: { runId, userId: "sam", input, requestSummary: { lastRole: "user", lastUserMessageId: user.id, trailingToolCallIds: [], resume: [] }, log: [] },
      events: [event(1, { type: EventType.RUN_STARTED, input: { messages: [user] } })],
      messages: [user],
      resolvedToolCallIds: [],
    });
    const answer: Message = { id: `a${turn}`, role: "assistant", content: words.replace("turn", "answer") };
    history.push(answer);
    await store.commitStep({ threadId: THREAD, runId, messages: [answer], pending: [] });
    await store.finishRun({ runId, status: "finished", outcome: { type: "success" }, events: [event(2, { type: EventType.RUN_FINISHED })] });
  }
  await store.close();
  return { last, total };
}

/** The stores as they were: every run listed or looked up with its request. */
function withRequests(store: RunStore): RunStore {
  const attach = async <T extends { runId: string } | undefined>(run: T) => (run ? { ...run, input: await store.readRunInput(run.runId) } : run);
  return {
    ...store,
    getRun: async (runId) => attach(await store.getRun(runId)),
    getActiveRun: async (threadId) => attach(await store.getActiveRun(threadId)),
    listRuns: async (threadId) => Promise.all((await store.listRuns(threadId)).map(attach)),
  };
}

async function measure(which: "before" | "after", file: string) {
  const sqlite = createSqliteRunStore({ filename: file });
  const store = which === "before" ? withRequests(sqlite) : sqlite;
  const tether = await createTetherApp({
    agents: [defineAgent({ id: "recipes", model: createScriptedModel([]), history: "client" })],
    authenticate: () => ({ id: "sam" }),
    store,
    logger: silentLogger,
  });
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await tether.app.request(path, { headers });
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.text();
  };
  const baseMiB = process.memoryUsage().rss / 2 ** 20;
  let peak = baseMiB;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss / 2 ** 20)), 5);
  const started = performance.now();
  for (let loop = 0; loop < LOOPS; loop++) {
    // A reloaded page: the thread, its chain of runs, then its events from the last id it held.
    await Promise.all([
      get(`/api/threads/${THREAD}`),
      get(`/api/threads/${THREAD}/runs`),
      get(`/api/threads/${THREAD}/events`, { "Last-Event-ID": `r${RUNS}:1` }),
    ]);
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss / 2 ** 20);
  await tether.close?.();
  await sqlite.close();
  console.log(JSON.stringify({ rssMiB: peak, baseMiB, ms }));
}
