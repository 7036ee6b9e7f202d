/**
 * Several instances, measured: the two-turn Workdesk story (three model
 * calls on the offline playbook, two runs, the browser's outcome in
 * between) at BENCH_CONCURRENCY (32) concurrent stories against
 *   - one instance on SQLite (the default),
 *   - one instance on PostgreSQL + Redis,
 *   - two instances on PostgreSQL + Redis behind nginx (round-robin),
 * all started side by side and measured in alternating rounds of
 * BENCH_STORIES (400) in one run. Prints stories/s, story latency p50/p99,
 * and CPU per story of the Tether processes and, separately, of nginx,
 * PostgreSQL and Redis (from /proc). Each instance is a demo server process
 * of its own; the client (@ag-ui/client's HttpAgent) runs in this process.
 *
 * Needs PostgreSQL and Redis (TETHER_TEST_DATABASE_URL, TETHER_TEST_REDIS_URL,
 * or the machine's own) and Debian's nginx.
 *
 *   npm run bench:instances
 *   BENCH_STORIES=200 BENCH_ROUNDS=1 npm run bench:instances
 */
import { deploymentServices, startDeployment } from "../../test/helpers/behind-nginx.ts";
import { startServerProcess, tokenFor, type ServerProcess } from "../../test/helpers/server-process.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandCpuMs, processCpuMs } from "./proc-cpu.ts";
import { playStories } from "./story-client.ts";

const STORIES = Number(process.env.BENCH_STORIES ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

interface Contender {
  name: string;
  url: string;
  processes: ServerProcess[];
}
interface Round {
  storiesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  tetherCpuMs: number;
  nginxCpuMs: number;
  postgresCpuMs: number;
  redisCpuMs: number;
}

const services = await deploymentServices("bench:instances");
if (services.skipped) process.exit(1);
const dataDir = mkdtempSync(join(tmpdir(), "tether-bench-instances-"));
const shared = { databaseUrl: services.databaseUrl, redisUrl: services.redisUrl };
const sqlite = await startServerProcess({ dataDir: join(dataDir, "sqlite") });
const pg = await startServerProcess({ dataDir: join(dataDir, "pg"), shared: { ...shared, schema: services.schemas!.make("bench_one") } });
const deployment = await startDeployment({ ...shared, schema: services.schemas!.make("bench_two") });
const contenders: Contender[] = [
  { name: "1 instance, SQLite", url: sqlite.url, processes: [sqlite] },
  { name: "1 instance, PostgreSQL + Redis", url: pg.url, processes: [pg] },
  { name: "2 instances behind nginx", url: deployment.url, processes: deployment.instances },
];
const token = tokenFor("kim");

async function measure(contender: Contender): Promise<Round> {
  const cpu = () => ({
    tether: contender.processes.reduce((sum, instance) => sum + processCpuMs(instance.pid), 0),
    nginx: commandCpuMs("nginx"),
    postgres: commandCpuMs("postgres"),
    redis: commandCpuMs("redis-server"),
  });
  const before = cpu();
  const result = await playStories(contender.url, token, STORIES, CONCURRENCY);
  const after = cpu();
  if (result.errors.length > 0) throw new Error(`${contender.name}: ${result.errors.length} stories failed; first: ${result.errors[0]}`);
  const per = (key: keyof typeof before) => (after[key] - before[key]) / STORIES;
  return { ...result, tetherCpuMs: per("tether"), nginxCpuMs: per("nginx"), postgresCpuMs: per("postgres"), redisCpuMs: per("redis") };
}

try {
  console.log(`The two-turn Workdesk story, ${STORIES} stories × ${ROUNDS} rounds at ${CONCURRENCY} concurrent, node ${process.version}`);
  for (const contender of contenders) await playStories(contender.url, token, 40, 8); // warm-up
  const rounds = new Map<string, Round[]>(contenders.map((contender) => [contender.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const contender of contenders) rounds.get(contender.name)!.push(await measure(contender));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const rows = contenders.map((contender) => {
    const measured = rounds.get(contender.name)!;
    const of = (key: keyof Round) => median(measured.map((round) => round[key]));
    return { name: contender.name, ...Object.fromEntries((Object.keys(measured[0]!) as Array<keyof Round>).map((key) => [key, of(key)])) } as Round & {
      name: string;
    };
  });
  const base = rows[0]!;
  console.log("");
  console.log("| | stories/s | vs SQLite | p50 ms | p99 ms | Tether CPU ms/story | nginx | PostgreSQL | Redis |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.storiesPerSecond.toFixed(1)} | ${(row.storiesPerSecond / base.storiesPerSecond).toFixed(2)}× | ${row.p50Ms.toFixed(0)} | ${row.p99Ms.toFixed(0)} | ${row.tetherCpuMs.toFixed(1)} | ${row.nginxCpuMs.toFixed(1)} | ${row.postgresCpuMs.toFixed(1)} | ${row.redisCpuMs.toFixed(1)} |`,
    );
  }
} finally {
  await Promise.all([sqlite.stop(), pg.stop(), deployment.stop()]);
  await services.schemas?.dropAll();
  rmSync(dataDir, { recursive: true, force: true });
}
