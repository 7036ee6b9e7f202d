import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { reachablePostgres, serverSchemas } from "../../../test/helpers/postgres.ts";
import { openPgDemoDatabase, type PgDemoDatabase } from "../../demo-database/pg-demo-database.ts";
import { createPgWorkRequestRepository } from "./pg-work-request-repository.ts";
import type { WorkRequestRepository } from "./work-request-repository.ts";
import type { WorkRequest } from "./work-requests.ts";

/**
 * The Workdesk's records on a real PostgreSQL, as several instances use them:
 * each repository here has a pool of its own, as an instance would, on one
 * schema.
 */

const server = await reachablePostgres();
if (!("url" in server)) console.info(`The Workdesk's records on PostgreSQL: skipped. ${server.skipped}`);
const CLOSED_AT = new Date("2026-12-01T10:00:00.000Z");

describe.skipIf(!("url" in server))("createPgWorkRequestRepository", () => {
  const url = "url" in server ? server.url : "";
  const schemas = serverSchemas(url);
  const databases: PgDemoDatabase[] = [];
  /** An instance's repository: its own pool (and listening connection) on the schema. */
  const instance = async (schema: string, options: { onError?: (error: unknown) => void } = {}) => {
    const database = await openPgDemoDatabase({ connectionString: url, schema });
    databases.push(database);
    return createPgWorkRequestRepository({ database, ...options });
  };
  const total = async (requests: WorkRequestRepository) => (await requests.list("ORG-01")).length + (await requests.list("ORG-02")).length;
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((database) => database.close()));
  });
  afterAll(async () => {
    await schemas.dropAll();
  });

  it("reads only the caller's organisation, by id in any case or by words, as the SQLite repository does", async () => {
    const requests = await instance(schemas.make("wr_read"));
    expect(await total(requests)).toBe(60);
    expect((await requests.list("ORG-02")).every((request) => request.orgScope === "ORG-02")).toBe(true);
    expect(await requests.get("ORG-02", "R-1042")).toBeUndefined();
    expect(requests.getSync("ORG-02", "R-1042")).toBeUndefined();
    expect(await requests.get("ORG-01", "r-1042")).toMatchObject({ id: "R-1042", status: "open", orgScope: "ORG-01" });
    expect(requests.getSync("ORG-01", "r-1042")).toEqual(await requests.get("ORG-01", "R-1042"));
    expect((await requests.list("ORG-01", { query: "reader gate" })).map((request) => request.id)).toEqual(["R-1042"]);
    const ids = (await requests.list("ORG-01", { status: "open" })).map((request) => request.id);
    expect(ids).toEqual([...ids].sort());
  });

  it("closes once, keeps the first resolution, and lets no other organisation close or see it", async () => {
    const requests = await instance(schemas.make("wr_close"));
    const closed = await requests.close("ORG-01", "r-1042", "fixed", CLOSED_AT);
    expect(closed).toMatchObject({ outcome: "closed", request: { id: "R-1042", status: "closed", resolution: "fixed", closedAt: CLOSED_AT.toISOString() } });
    const again = await requests.close("ORG-01", "R-1042", "replaced");
    expect(again).toEqual({ outcome: "already_closed", request: (closed as { request: WorkRequest }).request });
    const open = (await requests.list("ORG-01", { status: "open" }))[0]!;
    expect(await requests.close("ORG-02", open.id, "fixed")).toEqual({ outcome: "not_found" });
    expect(await requests.close("ORG-01", "R-9999", "fixed")).toEqual({ outcome: "not_found" });
    expect(await requests.get("ORG-01", open.id)).toEqual(open);
  });

  it("shows a close through one instance to another: its reads at once, its getSync as soon as the notification lands", async () => {
    const schema = schemas.make("wr_two");
    const [one, two] = [await instance(schema), await instance(schema)];
    expect(two.getSync("ORG-01", "R-1042")?.status).toBe("open");
    await one.close("ORG-01", "R-1042", "fixed", CLOSED_AT);
    expect(await two.get("ORG-01", "R-1042")).toMatchObject({ status: "closed", resolution: "fixed" });
    expect(two.getSync("ORG-01", "R-1042")).toMatchObject({ status: "closed", resolution: "fixed" });
    // Nothing read it on `two` this time: only the notification can tell it.
    await one.close("ORG-01", "R-1005", "fixed", CLOSED_AT);
    await vi.waitFor(() => expect(two.getSync("ORG-01", "R-1005")?.status).toBe("closed"), { timeout: 10_000, interval: 20 });
  });

  it("closes once when two instances close the same request at the same moment", async () => {
    const schema = schemas.make("wr_race");
    const [one, two] = [await instance(schema), await instance(schema)];
    for (const id of ["R-1005", "R-1014", "R-1017"]) {
      const results = await Promise.all([one.close("ORG-01", id, "fixed"), two.close("ORG-01", id, "replaced")]);
      expect(results.map((result) => result.outcome).sort()).toEqual(["already_closed", "closed"]);
      const [winner, loser] = results.map((result) => (result as { request: WorkRequest }).request);
      expect(loser).toEqual(winner);
    }
  });

  it("makes and seeds the table once when several instances start together, and never seeds over a close", async () => {
    for (let round = 0; round < 3; round++) {
      const schema = schemas.make(`wr_start${round}`);
      const started = await Promise.all([instance(schema), instance(schema), instance(schema), instance(schema)]);
      expect(await total(started[0]!)).toBe(60);
      await started[1]!.close("ORG-01", "R-1042", "fixed", CLOSED_AT);
      const later = await instance(schema);
      expect(await total(later)).toBe(60);
      expect(later.getSync("ORG-01", "R-1042")).toMatchObject({ status: "closed", resolution: "fixed" });
    }
  });

  it("listens again when its listening connection is killed, and catches up on the close it missed", async () => {
    const schema = schemas.make("wr_listen");
    const errors: unknown[] = [];
    const one = await instance(schema, { onError: (error) => errors.push(error) });
    const two = await instance(schema);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Only this schema's listeners: the channel in their LISTEN names it.
      const killed = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tether-demo-listen' AND query = $1", [
        listenStatement(schema),
      ]);
      expect(killed.rowCount).toBe(2);
      await two.close("ORG-01", "R-1042", "fixed", CLOSED_AT);
      await vi.waitFor(() => expect(one.getSync("ORG-01", "R-1042")?.status).toBe("closed"), { timeout: 15_000, interval: 50 });
      expect(errors).toEqual([]);
    } finally {
      await admin.end();
    }
  });

  it("goes on when its pool's connections are killed: a read may fail as store_unavailable, never the process, and the next ones work", async () => {
    const schema = schemas.make("wr_pool");
    const requests = await instance(schema);
    await Promise.all([requests.list("ORG-01"), requests.get("ORG-01", "R-1042"), requests.list("ORG-02")]);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // This schema's pool connections only: their last statement names it.
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'tether-demo' AND position($1 in query) > 0",
        [`"${schema}"`],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      const first = await requests.get("ORG-01", "R-1042").catch((error: unknown) => error);
      if (first instanceof Error) expect(first).toMatchObject({ code: "store_unavailable" });
      await vi.waitFor(async () => expect(await requests.get("ORG-01", "R-1042")).toMatchObject({ status: "open" }), { timeout: 10_000, interval: 50 });
      expect(await requests.close("ORG-01", "R-1042", "fixed")).toMatchObject({ outcome: "closed" });
    } finally {
      await admin.end();
    }
  });

  it("takes in nothing from a notification that is not a close's row", async () => {
    const schema = schemas.make("wr_forged");
    const requests = await instance(schema);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const channel = listenStatement(schema).slice('LISTEN "'.length, -1);
      for (const payload of ["not json", "null", JSON.stringify({ id: "R-1042", status: "closed" }), JSON.stringify({ id: "R-1042", org_scope: "ORG-01" })]) {
        await admin.query("SELECT pg_notify($1, $2)", [channel, payload]);
      }
      // A real close after them, through another instance: once it is seen, the ones before it were too.
      const other = await instance(schema);
      await other.close("ORG-01", "R-1005", "fixed");
      await vi.waitFor(() => expect(requests.getSync("ORG-01", "R-1005")?.status).toBe("closed"), { timeout: 10_000, interval: 20 });
      expect(requests.getSync("ORG-01", "R-1042")).toMatchObject({ status: "open", title: "Replace broken badge reader at Gate 3" });
    } finally {
      await admin.end();
    }
  });
});

/** The LISTEN statement a schema's repositories run, as pg_stat_activity shows it: the channel names the schema. */
function listenStatement(schema: string): string {
  return `LISTEN "workdesk_closed_${createHash("sha256").update(`"${schema}"`).digest("hex").slice(0, 16)}"`;
}
