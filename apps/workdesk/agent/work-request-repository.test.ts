import { describe, expect, it } from "vitest";
import { createWorkRequestRepository } from "./work-request-repository.ts";
import { WORK_REQUEST_STATUSES, seedWorkRequests } from "./work-requests.ts";

describe("seedWorkRequests", () => {
  it("holds exactly R-1001 to R-1060, once each", () => {
    const ids = seedWorkRequests().map((request) => request.id);
    expect(ids).toEqual(Array.from({ length: 60 }, (_, index) => `R-${1001 + index}`));
  });

  it("spreads the requests over both organisations", () => {
    const orgs = new Set(seedWorkRequests().map((request) => request.orgScope));
    expect([...orgs].sort()).toEqual(["ORG-01", "ORG-02"]);
  });

  it("has the story's request, the broken badge reader at Gate 3, open and high priority in ORG-01", () => {
    const story = seedWorkRequests().find((request) => request.id === "R-1042");
    expect(story).toMatchObject({ title: "Replace broken badge reader at Gate 3", orgScope: "ORG-01", status: "open", priority: "high" });
  });

  it("is the same on every start", () => {
    expect(seedWorkRequests()).toEqual(seedWorkRequests());
  });

  it("uses every status, so a search by any of them can find something", () => {
    const statuses = new Set(seedWorkRequests().map((request) => request.status));
    expect([...statuses].sort()).toEqual([...WORK_REQUEST_STATUSES].sort());
  });
});

describe("createWorkRequestRepository", () => {
  const requests = createWorkRequestRepository();

  it("lists only the caller's organisation", () => {
    for (const org of ["ORG-01", "ORG-02"]) {
      const listed = requests.list(org);
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((request) => request.orgScope === org)).toBe(true);
    }
    expect(requests.list("ORG-01").length + requests.list("ORG-02").length).toBe(60);
  });

  it("lists nothing for an organisation it does not know", () => {
    expect(requests.list("ORG-03")).toEqual([]);
  });

  it("never lets ORG-02 find another organisation's request, by id or by words", () => {
    expect(requests.get("ORG-02", "R-1042")).toBeUndefined();
    expect(requests.list("ORG-02", { query: "R-1042" })).toEqual([]);
    expect(requests.list("ORG-02", { query: "badge reader" })).toEqual([]);
  });

  it("gets a request of the caller's organisation by id, in any case", () => {
    expect(requests.get("ORG-01", "R-1042")?.title).toBe("Replace broken badge reader at Gate 3");
    expect(requests.get("ORG-01", "r-1042")?.id).toBe("R-1042");
  });

  it("finds requests by words of the title, in any order and case", () => {
    expect(requests.list("ORG-01", { query: "Badge Reader" }).map((request) => request.id)).toEqual(["R-1042"]);
    expect(requests.list("ORG-01", { query: "reader gate" }).map((request) => request.id)).toEqual(["R-1042"]);
  });

  it("needs every word to match", () => {
    expect(requests.list("ORG-01", { query: "badge printer" })).toEqual([]);
  });

  it("finds requests by requester", () => {
    const byLee = requests.list("ORG-01", { query: "lee" });
    expect(byLee.length).toBeGreaterThan(0);
    expect(byLee.every((request) => request.requester === "lee")).toBe(true);
  });

  // ORG-02 is every third request (index % 3 === 2) and its people are picked by index % 3, so all of them are yoon's.
  it("gives park, the ORG-02 demo user, requests of her own", () => {
    expect(requests.list("ORG-02", { query: "park" }).length).toBeGreaterThan(0);
    expect(new Set(requests.list("ORG-02").map((request) => request.requester)).size).toBeGreaterThan(1);
  });

  it.each(WORK_REQUEST_STATUSES)("filters by status %s", (status) => {
    const found = requests.list("ORG-01", { status });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((request) => request.status === status)).toBe(true);
  });

  it("combines words and status", () => {
    const printers = requests.list("ORG-01", { query: "printer" });
    expect(new Set(printers.map((request) => request.status)).size).toBeGreaterThan(1);
    const open = requests.list("ORG-01", { query: "printer", status: "open" });
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThan(printers.length);
    expect(open.every((request) => request.status === "open" && /printer/i.test(request.title))).toBe(true);
  });

  it("hands out copies, so changing a result does not change the records", () => {
    const listed = requests.list("ORG-01", { query: "R-1042" })[0]!;
    listed.title = "Changed";
    listed.status = "closed";
    const fetched = requests.get("ORG-01", "R-1042")!;
    fetched.orgScope = "ORG-02";
    expect(requests.get("ORG-01", "R-1042")).toMatchObject({ title: "Replace broken badge reader at Gate 3", status: "open", orgScope: "ORG-01" });
    expect(requests.get("ORG-02", "R-1042")).toBeUndefined();
  });

  it("serves the records it was given instead of the seed", () => {
    const own = createWorkRequestRepository([
      { id: "R-2001", orgScope: "ORG-09", title: "Fix the lift", status: "open", priority: "low", requester: "sam", createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z" },
    ]);
    expect(own.list("ORG-09").map((request) => request.id)).toEqual(["R-2001"]);
    expect(own.get("ORG-01", "R-1042")).toBeUndefined();
  });
});
