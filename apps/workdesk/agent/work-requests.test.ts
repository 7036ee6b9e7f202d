import { describe, expect, it } from "vitest";
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
