import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { quoteIdentifier } from "@tether-agent/tether/internal";

/** Where tests look for a PostgreSQL server: `TETHER_TEST_DATABASE_URL`, else the machine's own. */
export const TEST_DATABASE_URL = process.env.TETHER_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

/** A schema name no other test, file or process uses. */
export function uniqueSchema(label: string): string {
  return `tether_test_${label}_${process.pid}_${randomBytes(4).toString("hex")}`;
}

/**
 * Whether the PostgreSQL server answers: the URL when it does, else why not.
 * With `TETHER_TEST_REQUIRE_POSTGRES=1` (CI, which has one) an unreachable
 * server fails instead of skipping, so a missing service is never green.
 */
export async function reachablePostgres(): Promise<{ url: string } | { skipped: string }> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    return { url: TEST_DATABASE_URL };
  } catch (error) {
    const where = new URL(TEST_DATABASE_URL);
    const why = `PostgreSQL at ${where.host}${where.pathname} did not answer (${(error as { code?: string }).code ?? (error as Error).message})`;
    if (process.env.TETHER_TEST_REQUIRE_POSTGRES === "1") throw new Error(`${why}, and TETHER_TEST_REQUIRE_POSTGRES=1 requires it.`);
    return { skipped: `${why}; start PostgreSQL, or point TETHER_TEST_DATABASE_URL at one, to run these tests against a server.` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Schemas made on a real server for one test file, dropped (with everything in them) at its end. */
export function serverSchemas(url: string) {
  const made: string[] = [];
  return {
    make(label: string): string {
      const schema = uniqueSchema(label);
      made.push(schema);
      return schema;
    },
    async dropAll(): Promise<void> {
      if (made.length === 0) return;
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        // With it the demo's own data schema, which a demo on this schema makes beside it (apps/demo-data.ts).
        for (const schema of made.splice(0).flatMap((made) => [made, `${made}_demo`]))
          await pool.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`);
      } finally {
        await pool.end();
      }
    },
  };
}

/**
 * One embedded PostgreSQL (PGlite, WASM, nothing downloaded) for a test file,
 * started on first use: starting one takes seconds, a schema milliseconds,
 * so each store gets a fresh schema in it rather than a fresh database.
 */
export function embeddedPostgres() {
  let started: Promise<PGlite> | undefined;
  return {
    database: () => (started ??= PGlite.create()),
    async close() {
      if (started) await (await started).close();
      started = undefined;
    },
  };
}
