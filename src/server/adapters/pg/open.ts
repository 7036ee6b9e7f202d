import { TetherError, isTetherError } from "../../../protocol/index.ts";
import { missingDriver } from "../../missing-driver.ts";
import { toPgStoreError } from "./errors.ts";
import { quoteIdentifier } from "./schema.ts";
import { pgPoolRunner, pgliteRunner, type PgRunner } from "./runner.ts";
import type { PgRunStoreOptions } from "./run-store-options.ts";

/** The runner the options name: a PGlite, a pool of the caller's, or a pool of the store's own on the URL. */
export async function openPgRunner(options: PgRunStoreOptions): Promise<PgRunner> {
  if (options.pglite) return pgliteRunner(options.pglite);
  if (options.pool) return pgPoolRunner(options.pool, { owned: false });
  if (!options.connectionString)
    throw new TetherError("config_invalid", "The PostgreSQL store needs a connectionString (TETHER_DATABASE_URL), a pool or a PGlite.");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(options.connectionString)?.[1]?.toLowerCase();
  if (scheme && !["postgres", "postgresql", "socket"].includes(scheme))
    throw new TetherError(
      "config_invalid",
      `TETHER_DATABASE_URL names a ${scheme}: database; the store needs PostgreSQL (postgres://user@host:5432/database).`,
    );
  // Loaded only here: a process on the SQLite default never pays for the driver.
  const { default: pg } = await import("pg").catch((error: unknown) => {
    throw missingDriver(error, "pg") ?? error;
  });
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    application_name: "tether",
    connectionTimeoutMillis: 5000,
    // A write waits at most this long for another transaction's lock, then fails as store_unavailable rather than hanging a run.
    lock_timeout: 10_000,
    idle_in_transaction_session_timeout: 30_000,
  });
  return pgPoolRunner(pool, { owned: true });
}

/** Why the store could not open, naming the database without its password. */
export function cannotOpenPg(options: PgRunStoreOptions & { schema: string }, error: unknown): unknown {
  const refused = refusedConfiguration(options, error);
  if (refused) return refused;
  const mapped = toPgStoreError(error, `open the PostgreSQL store at ${describeDatabase(options)}`);
  if (isTetherError(mapped) && mapped.code === "store_unavailable" && options.connectionString) {
    return new TetherError("store_unavailable", `${mapped.message} Check TETHER_DATABASE_URL and that PostgreSQL is running.`, { cause: error });
  }
  return mapped;
}

/**
 * A refusal no retry cures: the role, its password or the database is wrong, or
 * the role may not create Tether's schema. Said with what to change; the
 * server's words name no password.
 */
function refusedConfiguration(options: PgRunStoreOptions & { schema: string }, error: unknown): TetherError | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code !== "string") return undefined;
  const where = describeDatabase(options);
  const why = `PostgreSQL at ${where} refused: ${String(message)} (${code}).`;
  if (code.startsWith("28")) return new TetherError("config_invalid", `${why} Check the user and password in TETHER_DATABASE_URL.`, { cause: error });
  if (code === "3D000") return new TetherError("config_invalid", `${why} Check the database name in TETHER_DATABASE_URL, or create it.`, { cause: error });
  if (code === "42501") {
    const role = roleOf(options) ?? "<role>";
    const schema = quoteIdentifier(options.schema);
    return new TetherError(
      "config_invalid",
      `${why} The role of TETHER_DATABASE_URL needs its own schema for Tether's tables: have an administrator run CREATE SCHEMA ${schema} AUTHORIZATION ${role}, or grant it CREATE on the database.`,
      { cause: error },
    );
  }
  return undefined;
}

function roleOf(options: PgRunStoreOptions): string | undefined {
  try {
    const name = decodeURIComponent(new URL(options.connectionString ?? "").username);
    return name ? quoteIdentifier(name) : undefined;
  } catch {
    return undefined;
  }
}

function describeDatabase(options: PgRunStoreOptions): string {
  if (!options.connectionString) return options.pglite ? "an embedded PGlite" : "the given pool";
  try {
    const url = new URL(options.connectionString);
    return `${url.hostname || "localhost"}:${url.port || "5432"}${url.pathname}`;
  } catch {
    return "TETHER_DATABASE_URL (not a valid URL)";
  }
}
