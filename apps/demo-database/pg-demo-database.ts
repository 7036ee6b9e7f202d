import { TetherError, isTetherError } from "@tether-agent/tether/protocol";
import { toPgStoreError } from "@tether-agent/tether/pg";
import pg from "pg";
import { quoteIdentifier } from "./quote-identifier.ts";
import { listenForNotifications, type NotificationHandlers, type NotificationListener } from "./pg-notifications.ts";

/** Runs one statement, on any free connection or on a transaction's own. */
export type PgDemoQuery = <Row = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<Row[]>;

/**
 * The demo apps' own data in PostgreSQL, beside Tether's threads and runs:
 * one pool, one schema of the demo's own (Tether's migrations never touch
 * it), made on first use. What an instance writes here every other instance
 * on the same database reads.
 */
export interface PgDemoDatabase {
  /** The schema, quoted for SQL: `${database.schema}.workdesk_requests`. */
  schema: string;
  /** One statement; storage trouble is `store_unavailable`, saying `what` failed. */
  query<Row = Record<string, unknown>>(what: string, text: string, values?: unknown[]): Promise<Row[]>;
  /**
   * Makes the schema and an app's tables and seeds them, in one transaction
   * under an advisory lock: of instances starting together one does it while
   * the others wait, then find it done. `work` must only create what is
   * missing and seed what is empty.
   */
  setUp(what: string, work: (query: PgDemoQuery) => Promise<void>): Promise<void>;
  /** Hears `channel`'s notifications (sent with `pg_notify`) until the database closes, on a connection of its own. */
  listen(channel: string, handlers: NotificationHandlers): Promise<NotificationListener>;
  /** Stops listening and closes the pool. Call it once nothing uses the data any more. */
  close(): Promise<void>;
}

export interface PgDemoDatabaseOptions {
  connectionString: string;
  /** The demo's own schema, such as `tether_demo` beside Tether's `tether`. */
  schema: string;
  /** Told when a listening connection broke (it is made again). */
  onListenError?: (error: unknown) => void;
}

export async function openPgDemoDatabase(options: PgDemoDatabaseOptions): Promise<PgDemoDatabase> {
  const schema = quoteIdentifier(options.schema);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    application_name: "tether-demo",
    max: 4,
    connectionTimeoutMillis: 5000,
    // As Tether's own pool: a statement waits at most this long for a lock, then fails rather than hanging a request.
    lock_timeout: 10_000,
    idle_in_transaction_session_timeout: 30_000,
  });
  // An idle connection the server closed is dropped and replaced; without a listener it would crash the process.
  pool.on("error", () => undefined);
  const listeners: NotificationListener[] = [];
  const fail = (error: unknown, what: string) => {
    const mapped = toPgStoreError(error, what);
    return isTetherError(mapped) ? mapped : (cannotSetUp(error, options.schema) ?? mapped);
  };

  const database: PgDemoDatabase = {
    schema,
    async query<Row>(what: string, text: string, values?: unknown[]) {
      try {
        return (await pool.query(text, values)).rows as Row[];
      } catch (error) {
        throw fail(error, what);
      }
    },
    async setUp(what, work) {
      let client: pg.PoolClient | undefined;
      let broken: Error | undefined;
      const onError = (error: Error) => (broken = error);
      try {
        client = await pool.connect();
        // A connection lost while checked out would otherwise raise an unhandled 'error' and end the process.
        client.on("error", onError);
        const checkedOut = client;
        const query: PgDemoQuery = async <Row>(text: string, values?: unknown[]) => (await checkedOut.query(text, values)).rows as Row[];
        await query("BEGIN");
        try {
          await query("SELECT pg_advisory_xact_lock(hashtext($1))", [`${options.schema}:demo-setup`]);
          await query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
          await work(query);
          await query("COMMIT");
        } catch (error) {
          await query("ROLLBACK").catch((rollbackError: unknown) => (broken = rollbackError as Error));
          throw error;
        }
      } catch (error) {
        throw fail(error, what);
      } finally {
        // A connection that broke, or could not roll back, is not given back to the pool.
        client?.off("error", onError);
        client?.release(broken);
      }
    },
    async listen(channel, handlers) {
      const listener = await listenForNotifications({
        connectionString: options.connectionString,
        channel,
        handlers,
        ...(options.onListenError ? { onError: options.onListenError } : {}),
      }).catch((error: unknown) => {
        throw fail(error, `listen on ${channel}`);
      });
      listeners.push(listener);
      return listener;
    },
    async close() {
      await Promise.all(listeners.splice(0).map((listener) => listener.close()));
      await pool.end();
    },
  };
  return database;
}

/** A role that may not create the demo's schema: what to change, as Tether says it for its own. */
function cannotSetUp(error: unknown, schema: string): TetherError | undefined {
  if ((error as { code?: unknown })?.code !== "42501") return undefined;
  return new TetherError(
    "config_invalid",
    `The demo keeps its own data (work requests, the kitchen) in the schema ${quoteIdentifier(schema)} beside Tether's, and PostgreSQL refused to make it (${(error as Error).message}). Have an administrator run CREATE SCHEMA ${quoteIdentifier(schema)} AUTHORIZATION <role>, or grant the role CREATE on the database.`,
    { cause: error },
  );
}
