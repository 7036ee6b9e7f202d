import { openSqliteDatabase, sqliteAttempt, toStoreError } from "@tether-agent/tether/sqlite";
import { workRequestMatches } from "./work-request-matches.ts";
import type { CloseWorkRequestResult, WorkRequestRepository } from "./work-request-repository.ts";
import { seedWorkRequests, type WorkRequest } from "./work-requests.ts";
import { toWorkRequest, type RequestRow } from "./work-request-row.ts";

export interface SqliteWorkRequestRepositoryOptions {
  /**
   * The database file. The demo uses the Tether store's own
   * (`join(dataDir, "tether.db")`), so the records and the threads that speak
   * of them are kept, and lost, together. `:memory:` for tests and stateless
   * uses.
   */
  filename: string;
  /** The records of the first start. Written only while the table is empty. Default: `seedWorkRequests()`. */
  seed?: WorkRequest[];
  /** How long a read or write may wait for a lock another connection holds. Default 2 s. */
  waitMs?: number;
}

export interface SqliteWorkRequestRepository extends WorkRequestRepository {
  /** Closes the database handle. Call it once the Tether app has closed, so no run still needs the records. */
  closeDatabase(): void;
}

/** The Workdesk's own table, beside Tether's, in the same file. */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS workdesk_requests (
  id TEXT PRIMARY KEY,
  org_scope TEXT NOT NULL,
  title TEXT NOT NULL,
  status TEXT NOT NULL,
  priority TEXT NOT NULL,
  requester TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  resolution TEXT,
  closed_at TEXT
);
CREATE INDEX IF NOT EXISTS workdesk_requests_by_org ON workdesk_requests (org_scope, status);
`;

/**
 * The Workdesk's records in SQLite. The table is created and seeded on the
 * first start only, so what was closed stays closed across restarts. Every
 * statement goes through `sqliteAttempt`: while another connection holds the
 * lock it waits without blocking the event loop, and storage trouble becomes
 * `store_unavailable`.
 *
 * @example
 * const requests = await createSqliteWorkRequestRepository({ filename: join(dataDir, "tether.db") });
 * await requests.close("ORG-01", "R-1042", "fixed");
 * requests.closeDatabase();
 */
export async function createSqliteWorkRequestRepository(options: SqliteWorkRequestRepositoryOptions): Promise<SqliteWorkRequestRepository> {
  const db = openSqliteDatabase(options.filename);
  const attempt = <T>(what: string, operation: () => T) =>
    sqliteAttempt(operation, { what, ...(options.waitMs !== undefined ? { waitMs: options.waitMs } : {}) });

  const seedIfEmpty = db.transaction((seed: WorkRequest[]) => {
    db.exec(SCHEMA);
    const { count } = db.prepare("SELECT COUNT(*) AS count FROM workdesk_requests").get() as { count: number };
    if (count > 0) return;
    const insert = db.prepare(
      `INSERT INTO workdesk_requests (id, org_scope, title, status, priority, requester, created_at, updated_at, resolution, closed_at)
       VALUES (@id, @orgScope, @title, @status, @priority, @requester, @createdAt, @updatedAt, @resolution, @closedAt)`,
    );
    for (const request of seed) insert.run({ resolution: null, closedAt: null, ...request });
  });
  try {
    await attempt("prepare the Workdesk's records", () => seedIfEmpty.immediate(options.seed ?? seedWorkRequests()));
  } catch (error) {
    db.close();
    throw error;
  }

  const statements = {
    list: db.prepare<{ orgScope: string; status: string | null }, RequestRow>(
      "SELECT * FROM workdesk_requests WHERE org_scope = @orgScope AND (@status IS NULL OR status = @status) ORDER BY id",
    ),
    get: db.prepare<[string, string], RequestRow>("SELECT * FROM workdesk_requests WHERE id = ? AND org_scope = ?"),
    close: db.prepare<[string, string, string, string], unknown>(
      "UPDATE workdesk_requests SET status = 'closed', resolution = ?, closed_at = ?, updated_at = ? WHERE id = ? AND status <> 'closed'",
    ),
  };
  const read = (orgScope: string, id: string) => {
    const row = statements.get.get(id.toUpperCase(), orgScope);
    return row && toWorkRequest(row);
  };
  // Read and write in one IMMEDIATE transaction: it holds the write lock from the start, so of two closes exactly one finds the request open.
  const closeOnce = db.transaction((orgScope: string, id: string, resolution: string, at: string): CloseWorkRequestResult => {
    const before = read(orgScope, id);
    if (!before) return { outcome: "not_found" };
    if (before.status === "closed") return { outcome: "already_closed", request: before };
    statements.close.run(resolution, at, at, before.id);
    return { outcome: "closed", request: read(orgScope, id)! };
  });

  return {
    list: (orgScope, filter = {}) =>
      attempt("list work requests", () =>
        statements.list
          .all({ orgScope, status: filter.status ?? null })
          .map(toWorkRequest)
          .filter((request) => workRequestMatches(request, filter.query ?? "")),
      ),
    get: (orgScope, id) => attempt(`read ${id}`, () => read(orgScope, id)),
    getSync(orgScope, id) {
      try {
        return read(orgScope, id);
      } catch (error) {
        throw toStoreError(error, `read ${id}`);
      }
    },
    close: (orgScope, id, resolution, now = new Date()) => attempt(`close ${id}`, () => closeOnce.immediate(orgScope, id, resolution, now.toISOString())),
    closeDatabase: () => db.close(),
  };
}
