import { TetherError } from "../../../protocol/index.ts";
import type { PgRunner } from "./runner.ts";

/**
 * The PostgreSQL store's tables, as numbered migrations. A migration is
 * applied once, in order, and never edited after it shipped: a change is a
 * new entry at the end.
 */
export const PG_MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: (schema: string) => string }> = [
  {
    version: 1,
    name: "threads, runs, messages, event pages, pending calls, interrupts, reports, facts",
    sql: (s) => `
CREATE TABLE ${s}.threads (
  thread_id text PRIMARY KEY,
  agent_id text NOT NULL,
  owner_id text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE ${s}.messages (
  thread_id text NOT NULL,
  position integer NOT NULL,
  message_id text NOT NULL,
  run_id text NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (thread_id, position),
  UNIQUE (thread_id, message_id)
);
CREATE TABLE ${s}.runs (
  run_id text PRIMARY KEY,
  thread_id text NOT NULL,
  ordinal integer NOT NULL,
  agent_id text NOT NULL,
  user_id text NOT NULL,
  parent_run_id text,
  trigger json,
  status text NOT NULL CHECK (status IN ('running', 'finished', 'cancelled', 'error')),
  outcome json,
  error json,
  usage json,
  input json NOT NULL,
  log json NOT NULL,
  -- The instance executing the run while it is running (see pg-instance.ts); a lease will sit beside it.
  owner text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE UNIQUE INDEX runs_by_thread ON ${s}.runs (thread_id, ordinal);
-- At most one running run per thread, whichever instance starts it: the database refuses the second.
CREATE UNIQUE INDEX runs_one_running_per_thread ON ${s}.runs (thread_id) WHERE status = 'running';
CREATE INDEX runs_running_by_owner ON ${s}.runs (owner) WHERE status = 'running';
-- The event log in pages of consecutive events, deflated JSON arrays (event-pages.ts), one row per flush.
CREATE TABLE ${s}.event_pages (
  run_id text NOT NULL,
  first_seq integer NOT NULL,
  last_seq integer NOT NULL,
  body bytea NOT NULL,
  PRIMARY KEY (run_id, first_seq)
);
CREATE TABLE ${s}.pending_tool_calls (
  id bigint GENERATED ALWAYS AS IDENTITY,
  thread_id text NOT NULL,
  tool_call_id text NOT NULL,
  tool_name text NOT NULL,
  run_id text NOT NULL,
  arguments text NOT NULL,
  PRIMARY KEY (thread_id, tool_call_id)
);
CREATE TABLE ${s}.interrupts (
  id bigint GENERATED ALWAYS AS IDENTITY,
  interrupt_id text PRIMARY KEY,
  thread_id text NOT NULL,
  run_id text NOT NULL,
  body json NOT NULL,
  status text NOT NULL,
  answer json,
  resolved_by_run_id text
);
CREATE INDEX interrupts_pending ON ${s}.interrupts (thread_id, id) WHERE status = 'pending';
CREATE TABLE ${s}.reports (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id text NOT NULL,
  received_at timestamptz NOT NULL,
  body json NOT NULL
);
CREATE INDEX reports_by_run ON ${s}.reports (run_id, id);
CREATE TABLE ${s}.run_facts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  run_id text NOT NULL,
  body json NOT NULL
);
CREATE INDEX run_facts_by_run ON ${s}.run_facts (run_id, id);
`,
  },
  {
    version: 2,
    name: "messages set aside by a regenerated answer",
    sql: (s) => `ALTER TABLE ${s}.messages ADD COLUMN superseded_by text;`,
  },
  {
    version: 3,
    name: "cancel requests recorded for the instance that executes the run",
    sql: (s) => `ALTER TABLE ${s}.runs ADD COLUMN cancel_requested_at timestamptz;`,
  },
  {
    version: 4,
    name: "each run's report count and bytes, kept beside its reports",
    // Counted from the reports already stored, in the migration's transaction.
    sql: (s) => `
CREATE TABLE ${s}.report_totals (
  run_id text PRIMARY KEY,
  count integer NOT NULL,
  bytes bigint NOT NULL
);
INSERT INTO ${s}.report_totals (run_id, count, bytes) SELECT run_id, count(*), sum(octet_length(body::text)) FROM ${s}.reports GROUP BY run_id;
`,
  },
  {
    version: 5,
    name: "run requests' histories stored once per thread by content",
    // See run-input-history.ts. Runs stored before keep their requests inline (input_history NULL).
    sql: (s) => `
ALTER TABLE ${s}.runs ADD COLUMN input_history text;
ALTER TABLE ${s}.runs ADD COLUMN request_summary json;
CREATE TABLE ${s}.history_contents (
  thread_id text NOT NULL,
  content_hash text NOT NULL,
  body json NOT NULL,
  PRIMARY KEY (thread_id, content_hash)
);
CREATE TABLE ${s}.history_links (
  thread_id text NOT NULL,
  node_hash text NOT NULL,
  parent_hash text NOT NULL,
  content_hash text NOT NULL,
  PRIMARY KEY (thread_id, node_hash)
);
`,
  },
  {
    version: 6,
    name: "an agent's shared state on threads and runs",
    // json, as every JSON column here, not jsonb: jsonb reorders keys and refuses strings JavaScript holds ("\u0000", a lone surrogate).
    sql: (s) => `
ALTER TABLE ${s}.threads ADD COLUMN state json;
ALTER TABLE ${s}.runs ADD COLUMN state json;
`,
  },
];

/** Advisory lock class of the migrations (the second key is the schema's hash): one migrating instance per schema at a time. */
const MIGRATION_LOCK = 0x7e7e_0001;

/** A schema name as SQL: quoted, so any name is one identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Brings the schema up to the latest migration. Safe when several instances
 * start at once: each takes a transaction-scoped advisory lock first, so one
 * applies what is missing while the others wait, then find nothing left to
 * do. Every migration commits with its version row, or not at all.
 */
export async function migratePgSchema(runner: PgRunner, schema: string): Promise<{ applied: number[] }> {
  const s = quoteIdentifier(schema);
  const latest = PG_MIGRATIONS.at(-1)!.version;
  return runner.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [MIGRATION_LOCK, schema]);
    // Asked first, not "CREATE … IF NOT EXISTS": PostgreSQL checks the right to create before it looks, so a role
    // given a schema made for it (or a migrated one) but no right to create schemas could never start.
    const [found] = (
      await tx.query<{ schema: boolean; migrations: boolean }>(
        "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema, to_regclass($2) IS NOT NULL AS migrations",
        [schema, `${s}.schema_migrations`],
      )
    ).rows;
    if (!found?.schema) await tx.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    if (!found?.migrations) {
      await tx.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    }
    const { rows } = await tx.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${s}.schema_migrations`);
    const current = rows[0]?.version ?? 0;
    if (current > latest) {
      throw new TetherError(
        "store_unavailable",
        `The database schema ${schema} is at version ${current}, newer than this Tether knows (${latest}). Upgrade Tether, or point TETHER_DATABASE_SCHEMA at another schema.`,
      );
    }
    const applied: number[] = [];
    for (const migration of PG_MIGRATIONS.filter((entry) => entry.version > current)) {
      // One statement per query: PGlite's query takes no more, and an error names its statement.
      for (const statement of migration
        .sql(s)
        .split(/;\s*\n/)
        .filter((text) => text.trim()))
        await tx.query(statement);
      await tx.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return { applied };
  });
}
