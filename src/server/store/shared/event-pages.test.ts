import { deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { EventType } from "@ag-ui/core";
import { decodePage, encodePage, pages } from "./event-pages.ts";
import type { StoredEvent } from "../port.ts";

const tokens = (count: number, from = 1, word = "w"): StoredEvent[] =>
  Array.from({ length: count }, (_, index) => ({
    seq: from + index,
    event: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: ` ${word}${index}` },
  }));
const json = (page: StoredEvent[]) => JSON.stringify(page.map((stored) => stored.event));

describe("event pages", () => {
  it("keeps a short page uncompressed in a stored block any inflater reads, an older Tether's included", () => {
    const page = tokens(3);
    const body = encodePage(page);
    expect(body[0]).toBe(0x01); // the last block, stored
    expect(body.subarray(5).toString("utf8")).toBe(json(page));
    expect(inflateRawSync(body).toString("utf8")).toBe(json(page));
    expect(decodePage(body)).toEqual(page.map((stored) => stored.event));
  });

  it("deflates a page from 1 KB on, counting bytes, not characters", () => {
    const long = tokens(200);
    const body = encodePage(long);
    expect(body.length).toBeLessThan(json(long).length / 10);
    expect(decodePage(body)).toEqual(long.map((stored) => stored.event));
    // 7 events of Hangul: under 1,024 characters, over 1,024 bytes.
    const korean = tokens(7, 1, "서울특별시 종로구 세종대로 ".repeat(5));
    expect(json(korean).length).toBeLessThan(1024);
    expect(Buffer.byteLength(json(korean))).toBeGreaterThanOrEqual(1024);
    expect(encodePage(korean)[0]).not.toBe(0x01);
    expect(decodePage(encodePage(korean))).toEqual(korean.map((stored) => stored.event));
  });

  it("reads pages an older Tether deflated, short ones included", () => {
    const page = tokens(2);
    expect(decodePage(deflateRawSync(json(page), { level: 1 }))).toEqual(page.map((stored) => stored.event));
    expect(decodePage(deflateRawSync(json(page), { level: 0 }))).toEqual(page.map((stored) => stored.event));
  });

  it("stores an event's stream encoding when it has one, as sent", () => {
    const page: StoredEvent[] = [{ seq: 1, event: { type: EventType.RUN_STARTED }, json: '{"type":"RUN_STARTED","threadId":"t","runId":"r"}' }];
    expect(decodePage(encodePage(page))).toEqual([{ type: "RUN_STARTED", threadId: "t", runId: "r" }]);
  });

  it("splits at a gap in the sequence and at a thousand events", () => {
    expect(pages([...tokens(2), ...tokens(2, 10)]).map((page) => page.map((stored) => stored.seq))).toEqual([
      [1, 2],
      [10, 11],
    ]);
    expect(pages(tokens(2500)).map((page) => page.length)).toEqual([1000, 1000, 500]);
  });
});

describe("event pages as the SQLite store writes them", () => {
  it("stores a run's short pages as stored blocks and its long ones deflated, and reads both back in order", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { default: Database } = await import("better-sqlite3");
    const { createSqliteRunStore } = await import("../../adapters/sqlite/index.ts");
    const dir = mkdtempSync(join(tmpdir(), "tether-pages-"));
    try {
      const filename = join(dir, "tether.db");
      const store = createSqliteRunStore({ filename });
      const threadId = "t1";
      await store.beginRun({
        thread: { threadId, agentId: "workdesk", ownerId: "kim" },
        run: { runId: "r1", userId: "kim", input: {}, log: [] },
        events: tokens(2),
        messages: [],
        resolvedToolCallIds: [],
      });
      await store.appendEvents("r1", tokens(300, 3));
      await store.appendEvents("r1", tokens(1, 303));
      expect((await store.readEvents("r1")).map((stored) => stored.seq)).toEqual(Array.from({ length: 303 }, (_, index) => index + 1));
      expect((await store.readEvents("r1", 302)).map((stored) => stored.event)).toEqual(tokens(1, 303).map((stored) => stored.event));
      expect((await store.getLastEvent("r1"))?.seq).toBe(303);
      await store.close();
      const raw = new Database(filename, { readonly: true });
      const bodies = (
        raw.prepare("SELECT body FROM event_pages JOIN runs USING (run_key) WHERE run_id = 'r1' ORDER BY first_seq").all() as Array<{ body: Buffer }>
      ).map((row) => row.body);
      raw.close();
      expect(bodies.map((body) => body[0] === 0x01)).toEqual([true, false, true]);
      // What an older Tether does with every page: inflate it.
      expect(bodies.map((body) => (JSON.parse(inflateRawSync(body).toString("utf8")) as unknown[]).length)).toEqual([2, 300, 1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
