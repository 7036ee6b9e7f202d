import type { Pool, PoolClient } from "pg";

/** What one query returns, the same from either driver. */
export interface PgResult<Row> {
  rows: Row[];
  /** Rows an INSERT, UPDATE or DELETE changed. */
  count: number;
}

/** Runs one statement: on a pool, any free connection; inside a transaction, its connection. */
export interface PgQueries {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgResult<Row>>;
}

/** A connection of its own, kept for as long as the store lives (it holds the instance's liveness lock). */
export interface PgSession extends PgQueries {
  /** Called when the connection breaks; the lock it held is gone. */
  onLost(listener: (error: unknown) => void): void;
  release(): Promise<void>;
}

/**
 * The seam between the PostgreSQL store and a driver: a `pg` Pool (a real
 * server) or a PGlite instance (PostgreSQL compiled to WASM, in process),
 * which speak the same SQL. The store writes SQL; this only moves it.
 */
export interface PgRunner extends PgQueries {
  /** Runs `work` in one transaction (READ COMMITTED) on one connection: committed when it returns, rolled back when it throws. */
  transaction<T>(work: (tx: PgQueries) => Promise<T>): Promise<T>;
  session(): Promise<PgSession>;
  /** Closes what the runner opened; a pool or PGlite handed in by the caller stays open. */
  end(): Promise<void>;
}

/** The part of PGlite the store uses, written out so the library needs no PGlite import (it is a test dependency). */
export interface PgliteLike {
  query<Row>(text: string, values?: unknown[]): Promise<{ rows: Row[]; affectedRows?: number }>;
  transaction<T>(work: (tx: { query<Row>(text: string, values?: unknown[]): Promise<{ rows: Row[]; affectedRows?: number }> }) => Promise<T>): Promise<T>;
}

export function pgPoolRunner(pool: Pool, options: { owned: boolean }): PgRunner {
  // Statements with parameters are the store's fixed set: each connection prepares one once and
  // then only binds and executes it, sparing PostgreSQL the parse and plan on every call.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (name === undefined) names.set(text, (name = `tether_${names.size}`));
    return name;
  };
  const on = (client: Pool | PoolClient): PgQueries => ({
    async query<Row>(text: string, values?: unknown[]) {
      const result = values && values.length > 0 ? await client.query({ name: nameOf(text), text, values }) : await client.query(text);
      return { rows: result.rows as Row[], count: result.rowCount ?? 0 };
    },
  });
  // A connection the database drops (a restart, pg_terminate_backend) is an 'error' event, which crashes the
  // process when nobody listens. The pool listens while a connection is idle, and tells its own 'error' event.
  const connectionLost = () => undefined;
  pool.on("error", connectionLost);
  // A new connection is handed out while its socket's bytes are still being read: a drop read in the same
  // bytes comes before whoever took it could listen. Listened to from birth, it never goes unheard.
  const listenFromBirth = (client: PoolClient) => void client.on("error", connectionLost);
  pool.on("connect", listenFromBirth);
  return {
    ...on(pool),
    async transaction(work) {
      const client = await pool.connect();
      // A checked-out client is not the pool's to watch: the database dropping its connection (a restart,
      // pg_terminate_backend) is an 'error' event on it, which must not crash the process. Its statements fail
      // anyway; the error kept here is the first and truest account of why.
      let lost: unknown;
      const onLost = (error: unknown) => void (lost ??= error);
      client.on("error", onLost);
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await work(on(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        // A connection that cannot even roll back is not given back to the pool.
        if (lost === undefined) await client.query("ROLLBACK").catch(() => (broken = true));
        throw lost ?? error;
      } finally {
        // A lost connection is discarded, never reused; the pool's own listener takes over before ours goes.
        client.release(lost !== undefined || broken ? new Error("The connection broke during a transaction.") : undefined);
        client.off("error", onLost);
      }
    },
    async session() {
      const client = await pool.connect();
      const listeners: Array<(error: unknown) => void> = [];
      // A dedicated connection that errors while idle would otherwise crash the process (an unhandled 'error' event).
      client.on("error", (error) => listeners.splice(0).forEach((listener) => listener(error)));
      return {
        ...on(client),
        onLost: (listener) => void listeners.push(listener),
        async release() {
          listeners.length = 0;
          client.release(true);
        },
      };
    },
    async end() {
      if (options.owned) await pool.end();
      else pool.off("error", connectionLost).off("connect", listenFromBirth);
    },
  };
}

/**
 * PGlite as a runner: one in-process session, so a "session" is that same
 * session and transactions queue behind each other. Embedded and
 * single-process, like SQLite: for tests and for trying the PostgreSQL store
 * without a server, never for several instances.
 */
export function pgliteRunner(db: PgliteLike): PgRunner {
  const on = (target: Pick<PgliteLike, "query">): PgQueries => ({
    async query<Row>(text: string, values?: unknown[]) {
      const result = await target.query<Row>(text, values);
      return { rows: result.rows, count: result.affectedRows ?? 0 };
    },
  });
  return {
    ...on(db),
    transaction: (work) => db.transaction((tx) => work(on(tx))),
    async session() {
      return { ...on(db), onLost() {}, async release() {} };
    },
    async end() {},
  };
}
