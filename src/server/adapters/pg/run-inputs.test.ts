import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { embeddedPostgres, reachablePostgres, serverSchemas, uniqueSchema } from "../../../../test/helpers/postgres.ts";
import { createPgRunStore, type PgRunStoreOptions } from "./run-store.ts";
import { PG_MIGRATIONS, quoteIdentifier } from "./schema.ts";
import { pgStatements } from "./statements.ts";

/** Run requests in a schema made before histories were stored by content (migration 3): read back as they were. */

const history = [
  { id: "u1", role: "user", content: "what can I cook with rice?" },
  { id: "a1", role: "assistant", content: "Fried rice, or a risotto." },
];
const clientInput = { threadId: "t1", runId: "r1", state: {}, messages: history, tools: [], context: [], forwardedProps: {} };
const serverInput = { threadId: "t1", runId: "r2", state: {}, tools: [], context: [], forwardedProps: {}, messageIds: ["u1"] };

interface Backend {
  name: string;
  on(schema: string): Promise<PgRunStoreOptions>;
  newSchema(): string;
  run(text: string, values?: unknown[]): Promise<void>;
}

const embedded = embeddedPostgres();
afterAll(() => embedded.close());
const backends: Backend[] = [
  {
    name: "PGlite",
    on: async (schema) => ({ pglite: await embedded.database(), schema }),
    newSchema: () => uniqueSchema("inputs"),
    run: async (text, values) => void (await (await embedded.database()).query(text, values)),
  },
];
const server = await reachablePostgres();
const schemas = "url" in server ? serverSchemas(server.url) : undefined;
afterAll(() => schemas?.dropAll());
if ("url" in server) {
  backends.push({
    name: "server",
    on: async (schema) => ({ connectionString: server.url, schema }),
    newSchema: () => schemas!.make("inputs"),
    async run(text, values) {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query(text, values).finally(() => client.end());
    },
  });
}

describe.each(backends)("run requests in a PostgreSQL schema made before migration 5 ($name)", (backend) => {
  it("reads every old run's request back whole after the upgrade, and stores a new run's history apart", async () => {
    const schema = backend.newSchema();
    const s = quoteIdentifier(schema);
    await (await createPgRunStore(await backend.on(schema))).close();
    // Back to version 4, with two runs as it stored them: each request inline.
    for (const column of ["input_history", "request_summary", "state"]) await backend.run(`ALTER TABLE ${s}.runs DROP COLUMN IF EXISTS ${column}`);
    await backend.run(`ALTER TABLE ${s}.threads DROP COLUMN IF EXISTS state`);
    for (const table of ["history_contents", "history_links"]) await backend.run(`DROP TABLE IF EXISTS ${s}.${table}`);
    await backend.run(`DELETE FROM ${s}.schema_migrations WHERE version > 4`);
    await backend.run(`INSERT INTO ${s}.threads VALUES ('t1', 'recipes', 'sam', now(), now())`);
    for (const [ordinal, input] of [clientInput, serverInput].entries()) {
      await backend.run(
        `INSERT INTO ${s}.runs (run_id, thread_id, ordinal, agent_id, user_id, status, input, log, created_at)
         VALUES ($1, 't1', $2, 'recipes', 'sam', 'finished', $3::json, '[]', now())`,
        [input.runId, ordinal + 1, JSON.stringify(input)],
      );
    }

    const store = await createPgRunStore(await backend.on(schema));
    try {
      expect(PG_MIGRATIONS.at(-1)!.version).toBe(6);
      expect(await store.readRunInput("r1")).toEqual(clientInput);
      expect(await store.readRunInput("r2")).toEqual(serverInput);
      expect((await store.listRuns("t1")).map((run) => Object.keys(run).includes("input"))).toEqual([false, false]);
      const next = { ...clientInput, runId: "r3", messages: [...history, { id: "u2", role: "user", content: "the risotto" }] };
      await store.beginRun({
        thread: { threadId: "t1", agentId: "recipes", ownerId: "sam" },
        run: { runId: "r3", userId: "sam", input: next, log: [] },
        events: [],
        messages: [],
        resolvedToolCallIds: [],
      });
      expect(JSON.stringify(await store.readRunInput("r3"))).toBe(JSON.stringify(next));
    } finally {
      await store.close();
    }
  });
});

describe("the PostgreSQL statements that list and look up runs (PGlite)", () => {
  it("select no request column: a run's request is read by readRunInput alone", async () => {
    const schema = uniqueSchema("inputs");
    await (await createPgRunStore({ pglite: await embedded.database(), schema })).close();
    const sql = pgStatements(schema);
    for (const [statement, value] of [
      [sql.getRun, "r1"],
      [sql.getActiveRun, "t1"],
      [sql.listRuns, "t1"],
      [sql.listRunLinks, "t1"],
    ] as const) {
      const { fields } = await (await embedded.database()).query(statement, [value]);
      const columns = fields.map((field) => field.name);
      expect(columns).toContain("run_id");
      expect(columns.filter((name) => name.startsWith("input"))).toEqual([]);
    }
  });
});
