import { describe, expect, it } from "vitest";
import { createMemoryRunStore } from "../store/index.ts";
import { createReportQuota } from "./report-quota.ts";

const limits = { maxReportBytes: 100, maxReportsPerRun: 3, maxReportBytesPerRun: 200 };
/** A memory store holding runs r1 and r2, whose reads of stored reports are counted. */
async function storeWithRuns() {
  const store = createMemoryRunStore();
  for (const runId of ["r1", "r2"]) {
    await store.beginRun({
      thread: { threadId: `t-${runId}`, agentId: "test", ownerId: "kim" },
      run: { runId, userId: "kim", input: {}, log: [] },
      events: [],
      messages: [],
      resolvedToolCallIds: [],
    });
  }
  const listed = { count: 0 };
  const listReports = store.listReports.bind(store);
  store.listReports = (runId) => {
    listed.count++;
    return listReports(runId);
  };
  return Object.assign(store, { listed });
}
const report = (pad: string) => ({ kind: "renderer-error", message: pad });
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("createReportQuota", () => {
  it("stores reports until the run has maxReportsPerRun, then refuses with report_limit_exceeded", async () => {
    const store = await storeWithRuns();
    const quota = createReportQuota(store, limits);
    for (const pad of ["a", "b", "c"]) await quota.add("r1", report(pad));

    await expect(quota.add("r1", report("d"))).rejects.toMatchObject({ code: "report_limit_exceeded" });
    // Admitted and refused without reading one stored report: the store keeps the run's totals.
    expect(store.listed.count).toBe(0);
    expect(await store.listReports("r1")).toHaveLength(3);
  });

  it("refuses a report over maxReportBytes with report_too_large", async () => {
    const store = await storeWithRuns();
    const quota = createReportQuota(store, limits);
    const big = report("x".repeat(100));
    expect(bytes(big)).toBeGreaterThan(100);

    await expect(quota.add("r1", big)).rejects.toMatchObject({ code: "report_too_large" });
    expect(await store.listReports("r1")).toEqual([]);
  });

  it("refuses the report that would take the run past maxReportBytesPerRun, counting multi-byte characters as bytes", async () => {
    const store = await storeWithRuns();
    const quota = createReportQuota(store, limits);
    const heavy = report("é".repeat(30)); // 30 characters, 60 bytes
    await quota.add("r1", heavy);
    await quota.add("r1", heavy);
    expect(bytes(heavy) * 3).toBeGreaterThan(200);

    await expect(quota.add("r1", heavy)).rejects.toMatchObject({ code: "report_limit_exceeded", message: expect.stringMatching(/at most 200 bytes/) });
    expect(store.listed.count).toBe(0);
    expect(await store.listReports("r1")).toHaveLength(2);
  });

  it("admits one run's reports one at a time, so reports sent together cannot pass the limit", async () => {
    const store = await storeWithRuns();
    const quota = createReportQuota(store, limits);

    const results = await Promise.allSettled(["a", "b", "c", "d", "e"].map((pad) => quota.add("r1", report(pad))));

    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "rejected", "rejected"]);
    expect(await store.listReports("r1")).toHaveLength(3);
  });

  it("keeps admitting after a refusal, and counts each run apart", async () => {
    const store = await storeWithRuns();
    const quota = createReportQuota(store, limits);
    await expect(quota.add("r1", report("x".repeat(200)))).rejects.toMatchObject({ code: "report_too_large" });

    await quota.add("r1", report("a"));
    await quota.add("r2", report("a"));

    expect(await store.listReports("r1")).toHaveLength(1);
    expect(await store.listReports("r2")).toHaveLength(1);
  });
});
