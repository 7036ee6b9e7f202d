import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { isTetherError } from "../../../protocol/index.ts";
import { embeddedPostgres, reachablePostgres, serverSchemas, uniqueSchema } from "../../../../test/helpers/postgres.ts";
import { createPgRunStore, type PgRunStoreOptions } from "./run-store.ts";
import { PG_MIGRATIONS, quoteIdentifier } from "./schema.ts";
import type { BeginRun, RunStore } from "../../store/index.ts";

/**
 * What the PostgreSQL store must do beyond the contract every store meets:
 * start safely beside other instances, keep their runs apart, and say clearly
 * when the database is not there.
 */

const begin = (threadId: string, runId: string): BeginRun => ({
  thread: { threadId, agentId: "workdesk", ownerId: "kim" },
  run: { runId, userId: "kim", input: {}, log: [] },
  events: [],
  messages: [],
  resolvedToolCallIds: [],
});

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    return isTetherError(error) ? error.code : `not a TetherError: ${String(error)}`;
  }
}

interface Backend {
  name: string;
  /** Options that open a store on the given schema of this backend's database. */
  on(schema: string): Promise<PgRunStoreOptions>;
  newSchema(): string;
  /** Runs one statement outside any store; its first value, if it returns one. */
  scalar<T>(text: string): Promise<T>;
  /** Separate connections per store, as separate processes have (PGlite has one session for all). */
  separateSessions: boolean;
}

const embedded = embeddedPostgres();
afterAll(() => embedded.close());
const backends: Backend[] = [
  {
    name: "PGlite",
    on: async (schema) => ({ pglite: await embedded.database(), schema }),
    newSchema: () => uniqueSchema("pg"),
    scalar: async (text) => Object.values((await (await embedded.database()).query<Record<string, unknown>>(text)).rows[0] ?? {})[0] as never,
    separateSessions: false,
  },
];
const server = await reachablePostgres();
const schemas = "url" in server ? serverSchemas(server.url) : undefined;
afterAll(() => schemas?.dropAll());
if ("url" in server) {
  backends.push({
    name: "server",
    on: async (schema) => ({ connectionString: server.url, schema }),
    newSchema: () => schemas!.make("pg"),
    async scalar(text) {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        return Object.values(((await client.query(text)).rows[0] as Record<string, unknown> | undefined) ?? {})[0] as never;
      } finally {
        await client.end();
      }
    },
    separateSessions: true,
  });
} else {
  console.info(`PostgreSQL store tests on a server: skipped. ${server.skipped}`);
  describe.skip(`createPgRunStore on server — ${server.skipped}`, () => {
    it("runs when a PostgreSQL server answers", () => {});
  });
}

for (const backend of backends) {
  describe(`createPgRunStore on ${backend.name}`, () => {
    const opened: RunStore[] = [];
    const open = async (schema: string, extra: Partial<PgRunStoreOptions> = {}) => {
      const store = await createPgRunStore({ ...(await backend.on(schema)), ...extra });
      opened.push(store);
      return store;
    };
    afterAll(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it("migrates a new schema once, and one left at version 5, when two instances start on it at the same moment", async () => {
      const schema = backend.newSchema();
      const quoted = quoteIdentifier(schema);
      const versions = () => backend.scalar(`SELECT string_agg(version::text, ',' ORDER BY version) FROM ${quoted}.schema_migrations`);
      const every = PG_MIGRATIONS.map((migration) => migration.version).join(",");

      const [first, second] = await Promise.all([open(schema), open(schema)]);

      expect(await versions()).toBe(every);
      await first!.beginRun(begin("thread_1", "run_1"));
      expect((await second!.getActiveRun("thread_1"))?.runId).toBe("run_1");
      await open(schema); // a third start finds nothing left to do
      // Back to version 5, before shared state, with its running run: two instances starting at once add the columns once.
      for (const table of ["threads", "runs"]) await backend.scalar(`ALTER TABLE ${quoted}.${table} DROP COLUMN state`);
      await backend.scalar(`DELETE FROM ${quoted}.schema_migrations WHERE version > 5`);
      const [third, fourth] = await Promise.all([open(schema), open(schema)]);
      expect(await versions()).toBe(every);
      for (const found of [await third!.getThread("thread_1"), await third!.getRun("run_1")]) expect(found).not.toHaveProperty("state");
      await third!.finishRun({ runId: "run_1", status: "finished", state: { step: 1 } });
      for (const found of [await fourth!.getThread("thread_1"), await fourth!.getRun("run_1")]) expect(found?.state).toEqual({ step: 1 });
    });

    it("brings a schema an earlier Tether made (version 1) up to date, keeping its threads", async () => {
      const schema = backend.newSchema();
      const first = await open(schema);
      await first.beginRun({ ...begin("thread_1", "run_1"), messages: [{ id: "m1", role: "user", content: "hello" }] });
      await first.finishRun({ runId: "run_1", status: "finished", outcome: { type: "success" } });
      await first.close();
      opened.splice(opened.indexOf(first), 1);
      const quoted = quoteIdentifier(schema);
      await backend.scalar(`ALTER TABLE ${quoted}.messages DROP COLUMN superseded_by`);
      await backend.scalar(`ALTER TABLE ${quoted}.runs DROP COLUMN cancel_requested_at`);
      await backend.scalar(`DROP TABLE ${quoted}.report_totals`);
      for (const column of ["input_history", "request_summary", "state"]) await backend.scalar(`ALTER TABLE ${quoted}.runs DROP COLUMN ${column}`);
      await backend.scalar(`ALTER TABLE ${quoted}.threads DROP COLUMN state`);
      for (const table of ["history_contents", "history_links"]) await backend.scalar(`DROP TABLE ${quoted}.${table}`);
      await backend.scalar(`DELETE FROM ${quoted}.schema_migrations WHERE version > 1`);

      const upgraded = await open(schema);

      const kept = await upgraded.getMessages("thread_1");
      expect(kept.map((message) => message.id)).toEqual(["m1"]);
      expect(await backend.scalar(`SELECT max(version) FROM ${quoted}.schema_migrations`)).toBe(PG_MIGRATIONS.at(-1)!.version);
      await upgraded.beginRun({ ...begin("thread_1", "run_2"), messages: [], supersede: { afterMessageId: "m1", count: 0 } });
    });

    it("admits one run per thread across instances: the second instance's start is refused with run_in_progress", async () => {
      const schema = backend.newSchema();
      const [a, b] = await Promise.all([open(schema), open(schema)]);

      const results = await Promise.all([code(a!.beginRun(begin("thread_1", "run_a"))), code(b!.beginRun(begin("thread_1", "run_b")))]);

      expect([...results].sort()).toEqual(["resolved", "run_in_progress"]);
      const winner = results[0] === "resolved" ? "run_a" : "run_b";
      expect((await a!.getActiveRun("thread_1"))?.runId).toBe(winner);
      expect(await code(b!.beginRun(begin("thread_1", "run_c")))).toBe("run_in_progress");
      expect(await code(a!.beginRun(begin("thread_2", winner)))).toBe("run_exists");
    });

    it("admits one of eight starts racing from two instances, on one thread or with one run id, and refuses the rest with their codes", async () => {
      const schema = backend.newSchema();
      const [a, b] = await Promise.all([open(schema), open(schema)]);
      const instances = [a!, b!];

      const oneThread = await Promise.all(Array.from({ length: 8 }, (_, index) => code(instances[index % 2]!.beginRun(begin("busy", `busy_${index}`)))));
      const oneRunId = await Promise.all(Array.from({ length: 8 }, (_, index) => code(instances[index % 2]!.beginRun(begin(`thread_${index}`, "same")))));

      expect([...oneThread].sort()).toEqual(["resolved", ...Array(7).fill("run_in_progress")]);
      expect([...oneRunId].sort()).toEqual(["resolved", ...Array(7).fill("run_exists")]);
      expect((await b!.listRuns("busy")).map((run) => run.runId)).toEqual([`busy_${oneThread.indexOf("resolved")}`]);
      // A refused start leaves no thread behind.
      const threads = await Promise.all(oneRunId.map((_, index) => a!.getThread(`thread_${index}`)));
      expect(threads.map((thread) => thread?.threadId)).toEqual(oneRunId.map((result, index) => (result === "resolved" ? `thread_${index}` : undefined)));
    });

    it("stores a page of events once when its write is retried after the answer was lost", async () => {
      const store = await open(backend.newSchema());
      await store.beginRun(begin("thread_1", "run_1"));
      const page = [1, 2].map((seq) => ({ seq, event: { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: `${seq}` } as never }));

      await store.appendEvents("run_1", page);
      await store.appendEvents("run_1", page);

      expect((await store.readEvents("run_1")).map((stored) => stored.seq)).toEqual([1, 2]);
    });

    it("refuses a schema a newer Tether migrated with store_unavailable, naming both versions", async () => {
      const schema = backend.newSchema();
      const store = await open(schema);
      await store.close();
      opened.splice(opened.indexOf(store), 1);
      await backend.scalar(`INSERT INTO ${quoteIdentifier(schema)}.schema_migrations (version, name) VALUES (999, 'from the future') RETURNING version`);

      await expect(open(schema)).rejects.toMatchObject({
        code: "store_unavailable",
        message: expect.stringMatching(new RegExp(`version 999.*\\(${PG_MIGRATIONS.at(-1)!.version}\\)`)),
      });
    });

    if (!backend.separateSessions) {
      it("has no endRunsOfLostInstances on PGlite: one process, nothing else can die holding its runs", async () => {
        const store = await open(backend.newSchema());
        expect(store.endRunsOfLostInstances).toBeUndefined();
      });
    }

    if (backend.separateSessions) {
      it("leaves the runs of an instance that is alive to it, in recovery and endLostRun, and ends them once it stopped", async () => {
        const schema = backend.newSchema();
        const running = await open(schema, { instanceId: "a" });
        await running.beginRun(begin("thread_1", "run_1"));
        const starting = await open(schema, { instanceId: "b" });

        expect(await starting.recoverInterruptedRuns()).toBe(0);
        expect((await starting.getRun("run_1"))?.status).toBe("running");

        // Nor is it ended as lost from there (a cancel reaching the other instance, say).
        expect(await starting.endLostRun("run_1", { code: "run_cancelled", status: "cancelled", message: "Cancelled." })).toBeUndefined();
        expect((await running.getRun("run_1"))?.status).toBe("running");

        await running.close();
        opened.splice(opened.indexOf(running), 1);
        expect(await starting.recoverInterruptedRuns()).toBe(1);
        expect(await starting.getRun("run_1")).toMatchObject({ status: "error", error: { code: "instance_lost" } });
        expect(await starting.recoverInterruptedRuns()).toBe(0);
      });

      it("ends a stopped instance's runs once in endRunsOfLostInstances, however many instances sweep at once", async () => {
        const schema = backend.newSchema();
        const stopping = await open(schema, { instanceId: "gone" });
        for (let index = 1; index <= 5; index++) await stopping.beginRun(begin(`thread_${index}`, `run_${index}`));
        const sweepers = await Promise.all([1, 2, 3, 4].map((index) => open(schema, { instanceId: `sweeper_${index}` })));
        expect(await sweepers[0]!.endRunsOfLostInstances!()).toBe(0); // alive

        await stopping.close();
        opened.splice(opened.indexOf(stopping), 1);
        const ended = await Promise.all(sweepers.flatMap((store) => [store.endRunsOfLostInstances!(), store.endRunsOfLostInstances!()]));

        expect(ended.reduce((sum, count) => sum + count, 0)).toBe(5);
        for (let index = 1; index <= 5; index++) {
          expect(await sweepers[0]!.getRun(`run_${index}`)).toMatchObject({ status: "error", error: { code: "instance_lost" } });
          const last = await sweepers[0]!.getLastEvent(`run_${index}`);
          expect(last?.event).toMatchObject({ type: "RUN_ERROR", code: "instance_lost" });
          // One ending each: a snapshot and its RUN_ERROR, not two.
          expect(await sweepers[0]!.readEvents(`run_${index}`)).toHaveLength(2);
        }
      });

      it("ends the runs of an instance killed with SIGKILL when the next one recovers, and frees the thread", async () => {
        const schema = backend.newSchema();
        await open(schema); // migrated before the child starts
        const child = spawn(
          process.execPath,
          ["--conditions=tether-source", "--import", "tsx", fileURLToPath(new URL("../../../../test/helpers/pg-store-process.ts", import.meta.url))],
          {
            env: {
              ...process.env,
              TETHER_TEST_DATABASE_URL: (await backend.on(schema)).connectionString,
              TETHER_TEST_SCHEMA: schema,
              TETHER_TEST_THREAD: "doomed",
            },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let output = "";
        child.stderr.on("data", (chunk: Buffer) => (output += chunk));
        await new Promise<void>((resolve, reject) => {
          child.stdout.on("data", (chunk: Buffer) => {
            output += chunk;
            if (output.includes("running doomed-run")) resolve();
          });
          child.once("exit", () => reject(new Error(`The instance exited before its run started:\n${output}`)));
        });
        const next = await open(schema);
        expect(await next.recoverInterruptedRuns()).toBe(0); // still alive

        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
        // The server notices the dead connection when its socket closes; a moment, not a timeout.
        let recovered = 0;
        for (let attempt = 0; attempt < 50 && recovered === 0; attempt++) {
          recovered = await next.recoverInterruptedRuns();
          if (recovered === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        }

        expect(recovered).toBe(1);
        expect(await next.getRun("doomed-run")).toMatchObject({ status: "error", error: { code: "instance_lost" } });
        await next.beginRun({ ...begin("doomed", "after"), messages: [{ id: "m2", role: "user", content: "still there?" }] });
        expect((await next.getMessages("doomed")).map((message) => message.id)).toEqual(["doomed-m1", "m2"]);
      });
    }
  });
}

describe("createPgRunStore without a database", () => {
  it("refuses to start with store_unavailable, naming the database (not its password) and TETHER_DATABASE_URL", async () => {
    const error = await createPgRunStore({ connectionString: "postgres://tether:s3cret@127.0.0.1:1/tether" }).then(
      () => undefined,
      (reason: unknown) => reason,
    );

    expect(error).toMatchObject({ code: "store_unavailable", message: expect.stringContaining("127.0.0.1:1/tether") });
    expect((error as Error).message).toContain("TETHER_DATABASE_URL");
    expect((error as Error).message).not.toContain("s3cret");
  });
});
