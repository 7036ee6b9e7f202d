import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import type { SseFrame } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reachablePostgres, serverSchemas } from "../helpers/postgres.ts";
import { readSseFrames } from "@tether-agent/tether/testing";

/**
 * Issue 39, H1: the database drops an instance's connections while its runs
 * stream (a restart, a failover, `pg_terminate_backend`). The instance, a
 * real process on the real PostgreSQL, must live through every round: its
 * runs end (finished, or `instance_lost` as docs/operations.md says), `/healthz`
 * answers, and the thread takes a new run once the instance holds its lock
 * again. Only this process's connections are terminated: they carry an
 * `application_name` no other session has.
 */

const SCRIPT = fileURLToPath(new URL("../helpers/pg-streaming-process.ts", import.meta.url));
const ROUNDS = 6;
const RUNS_PER_ROUND = 4;
/** Terminations per round, a moment apart: connections opened after the first are dropped too. */
const TERMINATIONS = 3;

const postgres = await reachablePostgres();
if ("skipped" in postgres) console.info(`An instance whose database connections are terminated mid-run: skipped. ${postgres.skipped}`);

describe.skipIf("skipped" in postgres)("an instance whose PostgreSQL connections are terminated while runs stream", () => {
  const url = "url" in postgres ? postgres.url : "";
  const schemas = serverSchemas(url);
  const schema = schemas.make("conn_loss");
  const applicationName = `tether_conn_loss_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  let child: ChildProcess;
  let base = "";
  let output = "";

  beforeAll(async () => {
    const withName = new URL(url);
    withName.searchParams.set("application_name", applicationName);
    child = spawn(process.execPath, ["--conditions=tether-source", "--import", "tsx", SCRIPT], {
      env: { ...process.env, TETHER_TEST_DATABASE_URL: withName.toString(), TETHER_TEST_SCHEMA: schema },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    base = await new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        output += chunk;
        const match = /listening (http:\/\/\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once("exit", (code) => reject(new Error(`The instance exited with ${code} before it served:\n${output}`)));
    });
  }, 60_000);
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
    await admin.end();
    await schemas.dropAll();
  });

  const alive = () => child.exitCode === null && child.signalCode === null;
  const post = (threadId: string, runId: string) =>
    fetch(`${base}/api/agents/test/run`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-user": "kim" },
      body: JSON.stringify({ threadId, runId, messages: [{ id: `${runId}-u1`, role: "user", content: "look it up" }], tools: [], context: [] }),
    });
  /** Ends every connection of the instance's, and only of it; how many there were. */
  const terminateInstanceConnections = async () =>
    (await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()", [applicationName]))
      .rowCount ?? 0;
  const endedAsExpected = (end: { type: string; code?: string } | undefined) =>
    end?.type === "RUN_FINISHED" || (end?.type === "RUN_ERROR" && (end.code === "instance_lost" || end.code === "store_unavailable"));
  const last = (seen: SseFrame[]) => seen.at(-1)?.data as { type: string; code?: string } | undefined;

  /** A new run on the thread, once the instance takes runs again (it refuses them while it takes its lock back). */
  async function runAgain(threadId: string, runId: string): Promise<SseFrame[]> {
    for (let attempt = 0; ; attempt++) {
      const response = await post(threadId, `${runId}-${attempt}`);
      if (response.ok) return readSseFrames(response).all();
      const { error } = (await response.json()) as { error: { code: string } };
      // store_unavailable: the lock is not back yet; run_in_progress: the stopped run's end is not stored yet.
      expect(["store_unavailable", "run_in_progress"]).toContain(error.code);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it(`lives through ${ROUNDS} rounds of its connections terminated under ${RUNS_PER_ROUND} streaming runs, and every thread goes on`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const threads = Array.from({ length: RUNS_PER_ROUND }, (_, index) => `t-${round}-${index}`);
      const streams = await Promise.all(threads.map(async (threadId) => readSseFrames(await post(threadId, `${threadId}-r1`))));
      // Every run is under way: started, and into its steps.
      await Promise.all(streams.map((stream) => stream.until(3)));

      let terminated = 0;
      for (let time = 0; time < TERMINATIONS; time++) {
        terminated += await terminateInstanceConnections();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(terminated, "the instance's connections were found").toBeGreaterThan(0);

      const ends = (
        await Promise.all(
          streams.map((stream) =>
            stream.all().catch(async (error: unknown) => {
              // A stream cut short: most likely the process died; give it a moment to be seen so.
              await new Promise((resolve) => setTimeout(resolve, 500));
              throw new Error(`Round ${round}: a run's stream broke (${String(error)}); the instance ${alive() ? "lives" : "died"}. It printed:\n${output}`);
            }),
          ),
        )
      ).map(last);
      // Stopped because the instance lost its lock: instance_lost. A run that reached its end as its own end's
      // write was cut says that its end could not be saved (store_unavailable), the truth of that operation.
      for (const end of ends) expect(endedAsExpected(end), `round ${round}: ${JSON.stringify(end)}\n${output}`).toBe(true);
      expect(alive(), `the instance died in round ${round}:\n${output}`).toBe(true);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);

      const again = await runAgain(threads[0]!, `${threads[0]}-r2`);
      expect(last(again), output).toMatchObject({ type: "RUN_FINISHED" });
    }

    // Every run ended and was stored so: none is left running, none ended otherwise.
    const { rows } = await admin.query<{ status: string; code: string | null }>(
      `SELECT status, error->>'code' AS code FROM "${schema}".runs WHERE status = 'running' OR (status = 'error' AND error->>'code' NOT IN ('instance_lost', 'store_unavailable'))`,
    );
    expect(rows).toEqual([]);
    expect(Number((await admin.query(`SELECT count(*) AS n FROM "${schema}".runs`)).rows[0].n)).toBe(ROUNDS * (RUNS_PER_ROUND + 1));
    expect(alive()).toBe(true);
  }, 300_000);
});
