import { describe, expect, it } from "vitest";
import type { RunReport, StoredEvent } from "../store/port.ts";
import { pageRecord, readRecordQuery } from "./record-page.ts";

const events = (from: number, to: number, pad = ""): StoredEvent[] =>
  Array.from({ length: to - from + 1 }, (_, index) => ({ seq: from + index, event: { type: "TEXT_MESSAGE_CONTENT", delta: pad } as StoredEvent["event"] }));
const reports = (count: number, pad = ""): RunReport[] => Array.from({ length: count }, (_, index) => ({ receivedAt: `t${index}`, report: { index, pad } }));
const readReports = (list: RunReport[]) => async () => list;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("pageRecord", () => {
  it("gives everything and no next when it fits", async () => {
    const page = await pageRecord(events(1, 5), readReports(reports(2)), { afterSeq: 0, afterReport: 0 }, 1000, 1024 * 1024);

    expect(page.events.map((stored) => stored.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(page.reports).toHaveLength(2);
    expect(page.next).toBeUndefined();
  });

  it("stops at `limit` events, without reading reports", async () => {
    let read = false;
    const page = await pageRecord(events(4, 20), async () => ((read = true), reports(2)), { afterSeq: 3, afterReport: 0 }, 5, 1024 * 1024);

    expect(page.events.map((stored) => stored.seq)).toEqual([4, 5, 6, 7, 8]);
    expect(page.reports).toEqual([]);
    expect(page.next).toEqual({ afterSeq: 8, afterReport: 0 });
    expect(read).toBe(false);
  });

  it("stops before the item that would pass maxBytes", async () => {
    const list = events(1, 10, "x".repeat(100));
    const maxBytes = bytes(list[0]) * 3 + 10;

    const page = await pageRecord(list, readReports([]), { afterSeq: 0, afterReport: 0 }, 1000, maxBytes);

    expect(page.events).toHaveLength(3);
    expect(page.next).toEqual({ afterSeq: 3, afterReport: 0 });
  });

  it("always takes one item, even one larger than maxBytes, so paging moves on", async () => {
    const page = await pageRecord(events(1, 2, "x".repeat(5000)), readReports([]), { afterSeq: 0, afterReport: 0 }, 1000, 100);

    expect(page.events.map((stored) => stored.seq)).toEqual([1]);
    expect(page.next).toEqual({ afterSeq: 1, afterReport: 0 });
  });

  it("fills the rest of the last events page with reports, then pages the reports", async () => {
    const first = await pageRecord(events(1, 3), readReports(reports(5)), { afterSeq: 0, afterReport: 0 }, 5, 1024 * 1024);
    const second = await pageRecord([], readReports(reports(5)), first.next!, 5, 1024 * 1024);

    expect(first.events).toHaveLength(3);
    expect(first.reports.map((entry) => entry.receivedAt)).toEqual(["t0", "t1"]);
    expect(first.next).toEqual({ afterSeq: 3, afterReport: 2 });
    expect(second.events).toEqual([]);
    expect(second.reports.map((entry) => entry.receivedAt)).toEqual(["t2", "t3", "t4"]);
    expect(second.next).toBeUndefined();
  });
});

describe("readRecordQuery", () => {
  const query = (values: Record<string, string | undefined>) => (name: string) => values[name];
  const limits = { maxItems: 1000, maxBytes: 1024 * 1024 };

  it("starts at the beginning with the largest page by default", () => {
    expect(readRecordQuery(query({}), limits)).toEqual({ cursor: { afterSeq: 0, afterReport: 0 }, limit: 1000 });
  });

  it("reads the cursor and lowers a limit over the maximum to it", () => {
    expect(readRecordQuery(query({ afterSeq: "42", afterReport: "3", limit: "10" }), limits)).toEqual({ cursor: { afterSeq: 42, afterReport: 3 }, limit: 10 });
    expect(readRecordQuery(query({ limit: "99999" }), limits).limit).toBe(1000);
  });

  it.each([{ afterSeq: "-1" }, { afterSeq: "1e3" }, { afterReport: "x" }, { limit: "0" }, { limit: "" }, { afterSeq: "9".repeat(20) }])(
    "refuses %o with invalid_input",
    (values) => {
      expect(() => readRecordQuery(query(values), limits)).toThrow(expect.objectContaining({ code: "invalid_input" }));
    },
  );
});
