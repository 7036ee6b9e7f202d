import { createHash } from "node:crypto";
import type { PgDemoDatabase, PgDemoQuery } from "../../demo-database/pg-demo-database.ts";
import { workRequestMatches } from "./work-request-matches.ts";
import type { CloseWorkRequestResult, WorkRequestRepository } from "./work-request-repository.ts";
import { seedWorkRequests, type WorkRequest } from "./work-requests.ts";
import { toWorkRequest, type RequestRow } from "./work-request-row.ts";

export interface PgWorkRequestRepositoryOptions {
  /** The demo's own schema and pool (see `openPgDemoDatabase`), shared by every instance on the database. */
  database: PgDemoDatabase;
  /** The records of the first start. Written only while the table is empty. Default: `seedWorkRequests()`. */
  seed?: WorkRequest[];
  /** Told when reading the records again after a lost connection failed (the copy `getSync` reads may lag until it succeeds). */
  onError?: (error: unknown) => void;
}

const TABLE = "workdesk_requests";

/**
 * The Workdesk's records in PostgreSQL, for several instances on one
 * database: a request closed through one reads closed through all. The same
 * semantics as the SQLite repository: made and seeded on the first start
 * only (under the database's setup lock, so instances starting together seed
 * once), and a close is one conditional UPDATE, so of two closes of one
 * request, through any instances, exactly one changes it.
 *
 * `getSync` cannot wait for PostgreSQL, so it reads a copy of every request
 * in memory: loaded at start, refreshed by every read and close, and by a
 * notification each close sends to every instance (read again whole when
 * the listening connection comes back after a break). Only a close ever
 * changes a request, and a close is final, so the copy never takes a closed
 * request back to open. Lagging by a notification's flight at worst, it only
 * decides whether to ask for an approval; the close itself is decided here,
 * by the database.
 */
export async function createPgWorkRequestRepository(options: PgWorkRequestRepositoryOptions): Promise<WorkRequestRepository> {
  const { database } = options;
  const table = `${database.schema}.${TABLE}`;
  // Short and fixed in length: a channel is an identifier (63 bytes at most), and the schema may be long.
  const channel = `workdesk_closed_${createHash("sha256").update(database.schema).digest("hex").slice(0, 16)}`;

  await database.setUp("prepare the Workdesk's records", async (query) => {
    await query(`CREATE TABLE IF NOT EXISTS ${table} (
      id text PRIMARY KEY,
      org_scope text NOT NULL,
      title text NOT NULL,
      status text NOT NULL,
      priority text NOT NULL,
      requester text NOT NULL,
      created_at text NOT NULL,
      updated_at text NOT NULL,
      resolution text,
      closed_at text
    )`);
    await query(`CREATE INDEX IF NOT EXISTS workdesk_requests_by_org ON ${table} (org_scope, status)`);
    await seedIfEmpty(query, table, options.seed ?? seedWorkRequests());
  });

  const copies = new Map<string, WorkRequest>();
  /** Keeps the newest known state of each request: a closed request never goes back to open, whatever arrives late. */
  const remember = (request: WorkRequest) => {
    const known = copies.get(request.id);
    if (known?.status === "closed" && request.status !== "closed") return;
    copies.set(request.id, request);
  };
  const readAll = async () => {
    for (const row of await database.query<RequestRow>("read the Workdesk's records", `SELECT * FROM ${table}`)) remember(toWorkRequest(row));
  };
  // Listening first, then reading: a close between the two is not missed.
  await database.listen(channel, {
    onNotification: (payload) => {
      // Anyone who may use the database can notify on the channel: only a close's row is taken in.
      const row = parseRow(payload);
      if (row?.status === "closed") remember(toWorkRequest(row));
    },
    onResubscribed: () =>
      readAll().catch((error: unknown) => {
        options.onError?.(error);
        throw error;
      }),
  });
  await readAll();

  const read = async (orgScope: string, id: string) => {
    const [row] = await database.query<RequestRow>(`read ${id}`, `SELECT * FROM ${table} WHERE id = $1 AND org_scope = $2`, [id.toUpperCase(), orgScope]);
    if (!row) return undefined;
    remember(toWorkRequest(row));
    // A copy of its own: the caller may change what it gets.
    return toWorkRequest(row);
  };

  return {
    async list(orgScope, filter = {}) {
      const rows = await database.query<RequestRow>(
        "list work requests",
        `SELECT * FROM ${table} WHERE org_scope = $1 AND ($2::text IS NULL OR status = $2) ORDER BY id`,
        [orgScope, filter.status ?? null],
      );
      const requests = rows.map(toWorkRequest);
      for (const request of requests) remember({ ...request });
      return requests.filter((request) => workRequestMatches(request, filter.query ?? ""));
    },
    get: read,
    getSync(orgScope, id) {
      const request = copies.get(id.toUpperCase());
      return request && request.orgScope === orgScope ? { ...request } : undefined;
    },
    async close(orgScope, id, resolution, now = new Date()): Promise<CloseWorkRequestResult> {
      const at = now.toISOString();
      // One statement: the row lock makes a second close wait for the first and then find it closed; the
      // notification tells every instance's copy, and is sent only if the close commits.
      const [closed] = await database.query<RequestRow>(
        `close ${id}`,
        `WITH closed AS (
           UPDATE ${table} SET status = 'closed', resolution = $3, closed_at = $4, updated_at = $4
           WHERE id = $1 AND org_scope = $2 AND status <> 'closed' RETURNING *
         )
         SELECT closed.*, pg_notify($5, row_to_json(closed)::text) AS notified FROM closed`,
        [id.toUpperCase(), orgScope, resolution, at, channel],
      );
      if (closed) {
        const request = toWorkRequest(closed);
        remember(request);
        return { outcome: "closed", request: { ...request } };
      }
      const before = await read(orgScope, id);
      return before ? { outcome: "already_closed", request: before } : { outcome: "not_found" };
    },
  };
}

/** Writes the seed when the table is empty; called under the setup lock, so never twice. */
async function seedIfEmpty(query: PgDemoQuery, table: string, seed: WorkRequest[]) {
  const [{ count }] = (await query<{ count: string }>(`SELECT count(*) AS count FROM ${table}`)) as [{ count: string }];
  if (Number(count) > 0 || seed.length === 0) return;
  const columns = ["id", "org_scope", "title", "status", "priority", "requester", "created_at", "updated_at", "resolution", "closed_at"];
  const values = seed.flatMap((request) => [
    request.id,
    request.orgScope,
    request.title,
    request.status,
    request.priority,
    request.requester,
    request.createdAt,
    request.updatedAt,
    request.resolution ?? null,
    request.closedAt ?? null,
  ]);
  const rows = seed.map((_request, row) => `(${columns.map((_column, column) => `$${row * columns.length + column + 1}`).join(", ")})`);
  await query(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${rows.join(", ")}`, values);
}

/** A notification's row, or undefined when it is not one. */
function parseRow(payload: string): RequestRow | undefined {
  try {
    const row = JSON.parse(payload) as Partial<RequestRow> | null;
    const texts = [row?.id, row?.org_scope, row?.title, row?.status, row?.priority, row?.requester, row?.created_at, row?.updated_at];
    return texts.every((text) => typeof text === "string") ? (row as RequestRow) : undefined;
  } catch {
    return undefined;
  }
}
