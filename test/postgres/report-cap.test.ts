import pg from "pg";
import { createTetherApp, defineAgent, silentLogger, type TetherApp } from "@tether-agent/tether/server";
import { createPgRunStore } from "@tether-agent/tether/pg";
import { createScriptedModel } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTetherError } from "@tether-agent/tether/protocol";
import { reachablePostgres, serverSchemas } from "../helpers/postgres.ts";

/**
 * Issue 39: the report byte cap holds across instances. Two instances on one
 * PostgreSQL schema take 18 reports of 60 KB for one run at once; the run's
 * 1 MiB holds 17 of them, whichever instance admits which.
 */

const MiB = 1024 * 1024;
const REPORT_BYTES = 60_000;

const postgres = await reachablePostgres();
if ("skipped" in postgres) console.info(`The report cap across instances, on PostgreSQL: skipped. ${postgres.skipped}`);

describe.skipIf("skipped" in postgres)("the report byte cap across two instances on one PostgreSQL", () => {
  const url = "url" in postgres ? postgres.url : "";
  const schemas = serverSchemas(url);
  const schema = schemas.make("report_cap");
  const apps: TetherApp[] = [];

  beforeAll(async () => {
    for (let index = 0; index < 2; index++) {
      apps.push(
        await createTetherApp({
          agents: [defineAgent({ id: "test", model: createScriptedModel([{ text: "Here." }]), tools: [], browserTools: [] })],
          authenticate: (request) => (request.headers.get("x-user") === "kim" ? { id: "kim" } : undefined),
          store: await createPgRunStore({ connectionString: url, schema }),
          logger: silentLogger,
        }),
      );
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await schemas.dropAll();
  });

  /** A renderer error of exactly `bytes` bytes of JSON. */
  const report = (index: number, bytes: number) => {
    const shell = { kind: "renderer-error", message: `broken ${String(index).padStart(2, "0")}`, details: { pad: "" } };
    return { ...shell, details: { pad: "x".repeat(bytes - Buffer.byteLength(JSON.stringify(shell))) } };
  };

  /** Kim's run `runId`, finished, on the first instance. */
  async function finishedRun(runId: string) {
    const run = await apps[0]!.app.request("/api/agents/test/run", {
      method: "POST",
      headers: { "Content-Type": "application/json", "x-user": "kim" },
      body: JSON.stringify({ threadId: `t-${runId}`, runId, messages: [{ id: `${runId}-u1`, role: "user", content: "hello" }], tools: [], context: [] }),
    });
    await run.text();
  }

  // Five runs, one burst each: a race the database did not settle shows in one of them.
  it.each(["r1", "r2", "r3", "r4", "r5"])(
    "stores at most 1 MiB of 18 reports of 60 KB sent at once through both (run %s), and refuses the rest with 429 report_limit_exceeded",
    async (runId) => {
      await finishedRun(runId);
      expect(Buffer.byteLength(JSON.stringify(report(0, REPORT_BYTES)))).toBe(REPORT_BYTES);

      const responses = await Promise.all(
        Array.from({ length: 18 }, async (_, index) =>
          apps[index % 2]!.app.request(`/api/runs/${runId}/reports`, {
            method: "POST",
            headers: { "Content-Type": "application/json", "x-user": "kim" },
            body: JSON.stringify(report(index, REPORT_BYTES)),
          }),
        ),
      );

      const refused = responses.filter((response) => response.status !== 202);
      for (const response of refused) {
        expect(response.status).toBe(429);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("report_limit_exceeded");
      }
      const stored = await apps[1]!.store.listReports(runId);
      expect(stored.reduce((total, entry) => total + Buffer.byteLength(JSON.stringify(entry.report)), 0)).toBeLessThanOrEqual(MiB);
      expect(stored).toHaveLength(Math.floor(MiB / REPORT_BYTES));
      expect(refused).toHaveLength(18 - stored.length);
    },
  );
});

describe.skipIf("skipped" in postgres)("report totals on a schema made before them (version 3)", () => {
  const url = "url" in postgres ? postgres.url : "";
  const schemas = serverSchemas(url);
  afterAll(() => schemas.dropAll());

  it("counts the reports the schema already holds, so its runs' caps hold", async () => {
    const schema = schemas.make("report_totals");
    const first = await createPgRunStore({ connectionString: url, schema });
    await first.beginRun({
      thread: { threadId: "thread_1", agentId: "workdesk", ownerId: "kim" },
      run: { runId: "run_1", userId: "kim", input: {}, log: [] },
      events: [],
      messages: [],
      resolvedToolCallIds: [],
    });
    for (const message of ["a", "é"]) await first.addReport("run_1", { kind: "renderer-error", message }); // 79 bytes in all
    await first.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const scalar = async (text: string) => Object.values(((await admin.query(text)).rows[0] as Record<string, unknown> | undefined) ?? {})[0];
    try {
      await admin.query(`DROP TABLE "${schema}".report_totals`);
      // And what later migrations added, so the upgrade applies them again.
      for (const column of ["input_history", "request_summary", "state"]) await admin.query(`ALTER TABLE "${schema}".runs DROP COLUMN ${column}`);
      await admin.query(`ALTER TABLE "${schema}".threads DROP COLUMN state`);
      for (const table of ["history_contents", "history_links"]) await admin.query(`DROP TABLE "${schema}".${table}`);
      await admin.query(`DELETE FROM "${schema}".schema_migrations WHERE version > 3`);

      const upgraded = await createPgRunStore({ connectionString: url, schema });
      try {
        expect(await scalar(`SELECT count || ':' || bytes FROM "${schema}".report_totals WHERE run_id = 'run_1'`)).toBe("2:79");
        const code = (promise: Promise<unknown>) =>
          promise.then(
            () => "stored",
            (error: unknown) => (isTetherError(error) ? error.code : String(error)),
          );
        expect(await code(upgraded.addReport("run_1", { kind: "x" }, { maxReportsPerRun: 2, maxReportBytesPerRun: 1000 }))).toBe("report_limit_exceeded");
        expect(await code(upgraded.addReport("run_1", { kind: "x" }, { maxReportsPerRun: 3, maxReportBytesPerRun: 90 }))).toBe("report_limit_exceeded");
        expect(await code(upgraded.addReport("run_1", { kind: "x" }, { maxReportsPerRun: 3, maxReportBytesPerRun: 91 }))).toBe("stored");
      } finally {
        await upgraded.close();
      }
    } finally {
      await admin.end();
    }
  });
});
