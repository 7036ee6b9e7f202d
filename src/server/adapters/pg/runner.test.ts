import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTetherError } from "../../../protocol/index.ts";
import { reachablePostgres } from "../../../../test/helpers/postgres.ts";
import { toPgStoreError } from "./errors.ts";
import { pgPoolRunner, type PgRunner } from "./runner.ts";

/**
 * A connection the database drops while a transaction holds it (a restart,
 * `pg_terminate_backend`, a network cut): that transaction fails as the
 * database being away, the connection is thrown away, and the process goes
 * on. The `pg` client emits 'error' for a dropped connection; with nobody
 * listening, that error would end the process.
 */

const server = await reachablePostgres();
if ("skipped" in server) console.info(`pgPoolRunner on a server: skipped. ${server.skipped}`);

describe.skipIf("skipped" in server)("pgPoolRunner, when the database drops a transaction's connection", () => {
  const url = "url" in server ? server.url : "";
  const admin = new pg.Client({ connectionString: url });
  let pool: pg.Pool;
  let runner: PgRunner;
  /** The client each transaction got, to wait for its socket to end (a listener there masks nothing). */
  let acquired: pg.PoolClient | undefined;

  beforeAll(async () => {
    admin.on("error", () => undefined);
    await admin.connect();
    pool = new pg.Pool({ connectionString: url, max: 2, application_name: `tether_runner_test_${process.pid}` });
    pool.on("error", () => undefined); // idle clients, as the store's own pool does (pg-open.ts)
    pool.on("acquire", (client) => (acquired = client));
    runner = pgPoolRunner(pool, { owned: true });
  });
  afterAll(async () => {
    await runner?.end();
    await admin.end();
  });

  const terminate = (pid: number) => admin.query("SELECT pg_terminate_backend($1)", [pid]);
  // Told first, before the client hears of it; the test goes on after the client's own handling.
  const socketEnded = (client: pg.PoolClient) =>
    new Promise<void>((resolve) =>
      (client as unknown as { connection: { stream: NodeJS.EventEmitter } }).connection.stream.prependOnceListener("end", () => resolve()),
    );
  const backendPid = async (tx: { query: PgRunner["query"] }) => (await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;

  async function rejection(promise: Promise<unknown>): Promise<unknown> {
    try {
      await promise;
    } catch (error) {
      return error;
    }
    throw new Error("expected the transaction to fail");
  }

  it("fails a transaction whose connection was dropped while it sat idle as store_unavailable, and never hands that connection out again", async () => {
    let terminated = 0;
    const error = await rejection(
      runner.transaction(async (tx) => {
        terminated = await backendPid(tx);
        const ended = socketEnded(acquired!);
        await terminate(terminated);
        // The client is idle between statements when its backend goes: it hears of it only as an 'error' event.
        await ended;
        await tx.query("SELECT 1");
      }),
    );

    expect((error as { code?: string }).code).toBe("57P01");
    const mapped = toPgStoreError(error, "store the run's step");
    expect(isTetherError(mapped) && mapped.code).toBe("store_unavailable");
    // The pool goes on, on another connection.
    expect(await runner.transaction((tx) => backendPid(tx))).not.toBe(terminated);
    expect((await runner.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("fails a transaction whose connection was dropped in the middle of a statement as store_unavailable, and goes on", async () => {
    let terminated = 0;
    const error = await rejection(
      runner.transaction(async (tx) => {
        terminated = await backendPid(tx);
        const sleeping = tx.query("SELECT pg_sleep(30)");
        sleeping.catch(() => undefined); // it may fail before it is awaited below
        // Dropped once the statement runs: the statement fails, then the closing socket is an 'error' event on the client.
        for (let state = ""; state !== "active";) {
          state = (await admin.query<{ state: string }>("SELECT state FROM pg_stat_activity WHERE pid = $1", [terminated])).rows[0]?.state ?? "";
        }
        await terminate(terminated);
        await sleeping;
      }),
    );

    expect(isTetherError(toPgStoreError(error)) && (toPgStoreError(error) as { code: string }).code).toBe("store_unavailable");
    expect(await runner.transaction((tx) => backendPid(tx))).not.toBe(terminated);
  });
});
