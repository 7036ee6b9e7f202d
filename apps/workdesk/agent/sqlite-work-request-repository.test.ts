import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { isTetherError } from "@tether-agent/tether/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSqliteWorkRequestRepository, type SqliteWorkRequestRepository } from "./sqlite-work-request-repository.ts";
import { WORK_REQUEST_STATUSES, type WorkRequest } from "./work-requests.ts";

const BADGE_READER = { id: "R-1042", title: "Replace broken badge reader at Gate 3", status: "open", orgScope: "ORG-01" };
const CLOSED_AT = new Date("2026-12-01T10:00:00.000Z");

describe("createSqliteWorkRequestRepository: reading", () => {
  let requests: SqliteWorkRequestRepository;
  beforeAll(async () => {
    requests = await createSqliteWorkRequestRepository({ filename: ":memory:" });
  });
  afterAll(() => requests.closeDatabase());

  it("lists only the caller's organisation", async () => {
    for (const org of ["ORG-01", "ORG-02"]) {
      const listed = await requests.list(org);
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((request) => request.orgScope === org)).toBe(true);
    }
    expect((await requests.list("ORG-01")).length + (await requests.list("ORG-02")).length).toBe(60);
  });

  it("lists in id order", async () => {
    const ids = (await requests.list("ORG-01")).map((request) => request.id);
    expect(ids).toEqual([...ids].sort());
  });

  it("lists nothing for an organisation it does not know", async () => {
    expect(await requests.list("ORG-03")).toEqual([]);
  });

  it("never lets ORG-02 find another organisation's request, by id or by words", async () => {
    expect(await requests.get("ORG-02", "R-1042")).toBeUndefined();
    expect(requests.getSync("ORG-02", "R-1042")).toBeUndefined();
    expect(await requests.list("ORG-02", { query: "R-1042" })).toEqual([]);
    expect(await requests.list("ORG-02", { query: "badge reader" })).toEqual([]);
  });

  it("gets a request of the caller's organisation by id, in any case, waiting or not", async () => {
    expect(await requests.get("ORG-01", "R-1042")).toMatchObject(BADGE_READER);
    expect((await requests.get("ORG-01", "r-1042"))?.id).toBe("R-1042");
    expect(requests.getSync("ORG-01", "r-1042")).toEqual(await requests.get("ORG-01", "R-1042"));
  });

  it("finds requests by words of the title, in any order and case", async () => {
    expect((await requests.list("ORG-01", { query: "Badge Reader" })).map((request) => request.id)).toEqual(["R-1042"]);
    expect((await requests.list("ORG-01", { query: "reader gate" })).map((request) => request.id)).toEqual(["R-1042"]);
  });

  it("needs every word to match", async () => {
    expect(await requests.list("ORG-01", { query: "badge printer" })).toEqual([]);
  });

  it("finds requests by requester", async () => {
    const byLee = await requests.list("ORG-01", { query: "lee" });
    expect(byLee.length).toBeGreaterThan(0);
    expect(byLee.every((request) => request.requester === "lee")).toBe(true);
  });

  it("gives park, the ORG-02 demo user, requests of her own", async () => {
    expect((await requests.list("ORG-02", { query: "park" })).length).toBeGreaterThan(0);
    expect(new Set((await requests.list("ORG-02")).map((request) => request.requester)).size).toBeGreaterThan(1);
  });

  it.each(WORK_REQUEST_STATUSES)("filters by status %s", async (status) => {
    const found = await requests.list("ORG-01", { status });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((request) => request.status === status)).toBe(true);
  });

  it("combines words and status", async () => {
    const printers = await requests.list("ORG-01", { query: "printer" });
    expect(new Set(printers.map((request) => request.status)).size).toBeGreaterThan(1);
    const open = await requests.list("ORG-01", { query: "printer", status: "open" });
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThan(printers.length);
    expect(open.every((request) => request.status === "open" && /printer/i.test(request.title))).toBe(true);
  });

  it("hands out copies, so changing a result does not change the records", async () => {
    const listed = (await requests.list("ORG-01", { query: "R-1042" }))[0]!;
    listed.title = "Changed";
    listed.status = "closed";
    const fetched = (await requests.get("ORG-01", "R-1042"))!;
    fetched.orgScope = "ORG-02";
    expect(await requests.get("ORG-01", "R-1042")).toMatchObject(BADGE_READER);
    expect(await requests.get("ORG-02", "R-1042")).toBeUndefined();
  });

  it("serves the records it was given instead of the seed", async () => {
    const own = await createSqliteWorkRequestRepository({
      filename: ":memory:",
      seed: [
        {
          id: "R-2001",
          orgScope: "ORG-09",
          title: "Fix the lift",
          status: "open",
          priority: "low",
          requester: "sam",
          createdAt: "2026-01-01T00:00:00.000Z",
          updatedAt: "2026-01-01T00:00:00.000Z",
        },
      ],
    });
    try {
      expect((await own.list("ORG-09")).map((request) => request.id)).toEqual(["R-2001"]);
      expect(await own.get("ORG-01", "R-1042")).toBeUndefined();
    } finally {
      own.closeDatabase();
    }
  });
});

describe("createSqliteWorkRequestRepository: closing", () => {
  let requests: SqliteWorkRequestRepository;
  beforeAll(async () => {
    requests = await createSqliteWorkRequestRepository({ filename: ":memory:" });
  });
  afterAll(() => requests.closeDatabase());

  it("closes a request with its resolution and time, and reads it closed after", async () => {
    const result = await requests.close("ORG-01", "r-1042", "fixed", CLOSED_AT);
    const closed = { ...BADGE_READER, status: "closed", resolution: "fixed", closedAt: CLOSED_AT.toISOString(), updatedAt: CLOSED_AT.toISOString() };
    expect(result).toMatchObject({ outcome: "closed", request: closed });
    expect(await requests.get("ORG-01", "R-1042")).toMatchObject(closed);
    expect((await requests.list("ORG-01", { status: "closed", query: "badge" })).map((request) => request.id)).toEqual(["R-1042"]);
  });

  it("does not close a closed request again: the first resolution and time stay, and the result says so", async () => {
    const before = (await requests.get("ORG-01", "R-1042"))!;
    const again = await requests.close("ORG-01", "R-1042", "replaced", new Date("2026-12-02T10:00:00.000Z"));
    expect(again).toEqual({ outcome: "already_closed", request: before });
    expect(await requests.get("ORG-01", "R-1042")).toEqual(before);
  });

  it("lets another organisation neither close nor see the request", async () => {
    const open = (await requests.list("ORG-01", { status: "open" }))[0]!;
    expect(await requests.close("ORG-02", open.id, "fixed")).toEqual({ outcome: "not_found" });
    expect(await requests.get("ORG-01", open.id)).toEqual(open);
  });

  it("reports a request that does not exist as not found", async () => {
    expect(await requests.close("ORG-01", "R-9999", "fixed")).toEqual({ outcome: "not_found" });
  });
});

describe("createSqliteWorkRequestRepository: in a file", () => {
  let dataDir: string;
  const opened: SqliteWorkRequestRepository[] = [];
  const open = async (options: { waitMs?: number; seed?: WorkRequest[] } = {}) => {
    const repository = await createSqliteWorkRequestRepository({ filename: join(dataDir, "tether.db"), ...options });
    opened.push(repository);
    return repository;
  };
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "workdesk-records-"));
  });
  afterEach(() => {
    for (const repository of opened.splice(0)) repository.closeDatabase();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("seeds only the first time, so a close survives reopening", async () => {
    const first = await open();
    await first.close("ORG-01", "R-1042", "fixed", CLOSED_AT);
    first.closeDatabase();
    const reopened = await open();
    expect(await reopened.get("ORG-01", "R-1042")).toMatchObject({ status: "closed", resolution: "fixed", closedAt: CLOSED_AT.toISOString() });
    // The seed was not written a second time beside the first.
    expect((await reopened.list("ORG-01")).length + (await reopened.list("ORG-02")).length).toBe(60);
  });

  it("closes once when two connections close the same request", async () => {
    const [one, two] = [await open(), await open()];
    const results = await Promise.all([one.close("ORG-01", "R-1005", "fixed"), two.close("ORG-01", "R-1005", "replaced")]);
    expect(results.map((result) => result.outcome).sort()).toEqual(["already_closed", "closed"]);
    // The second sees what the first wrote: the first resolution, not its own.
    const [winner, loser] = results.map((result) => (result as { request: WorkRequest }).request);
    expect(loser).toEqual(winner);
    expect(winner).toMatchObject({ status: "closed", resolution: "fixed" });
  });

  it("waits for a write lock another connection holds, without blocking, and closes once it is free", async () => {
    const requests = await open();
    const other = new Database(join(dataDir, "tether.db"));
    try {
      other.exec("BEGIN IMMEDIATE");
      let settled = false;
      const closing = requests.close("ORG-01", "R-1014", "fixed").finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(settled).toBe(false); // still waiting, and the event loop ran this line
      other.exec("COMMIT");
      expect(await closing).toMatchObject({ outcome: "closed", request: { id: "R-1014", status: "closed" } });
    } finally {
      other.close();
    }
  });

  it("answers store_unavailable, saying to try again, when the lock is held past the wait", async () => {
    const requests = await open({ waitMs: 30 });
    const other = new Database(join(dataDir, "tether.db"));
    try {
      other.exec("BEGIN IMMEDIATE");
      const error = await requests.close("ORG-01", "R-1017", "fixed").catch((caught: unknown) => caught);
      expect(isTetherError(error) && error.code).toBe("store_unavailable");
      expect((error as Error).message).toMatch(/Could not close R-1017: .*Try again/);
      other.exec("ROLLBACK");
      expect((await requests.get("ORG-01", "R-1017"))?.status).not.toBe("closed");
    } finally {
      other.close();
    }
  });
});
