import { describe, expect, it } from "vitest";
import { EventType } from "@ag-ui/core";
import { decodePage, encodePage, encodePageOrText, pages } from "./event-pages.ts";
import type { StoredEvent } from "./port.ts";

const tokens = (count: number, from = 1): StoredEvent[] =>
  Array.from({ length: count }, (_, index) => ({ seq: from + index, event: { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "m1", delta: ` w${index}` } }));

describe("event pages", () => {
  it("keeps a short page as its JSON text and deflates a long one, and reads both back", () => {
    const short = tokens(3);
    const long = tokens(200);
    const shortBody = encodePageOrText(short);
    const longBody = encodePageOrText(long);
    expect(typeof shortBody).toBe("string");
    expect(Buffer.isBuffer(longBody)).toBe(true);
    expect((longBody as Buffer).length).toBeLessThan(JSON.stringify(long.map((stored) => stored.event)).length / 10);
    expect(decodePage(shortBody)).toEqual(short.map((stored) => stored.event));
    expect(decodePage(longBody)).toEqual(long.map((stored) => stored.event));
  });

  it("reads pages stored deflated before short pages were kept as text", () => {
    const page = tokens(2);
    expect(decodePage(encodePage(page))).toEqual(page.map((stored) => stored.event));
  });

  it("stores an event's stream encoding when it has one, as sent", () => {
    const page: StoredEvent[] = [{ seq: 1, event: { type: EventType.RUN_STARTED }, json: '{"type":"RUN_STARTED","threadId":"t","runId":"r"}' }];
    expect(decodePage(encodePageOrText(page))).toEqual([{ type: "RUN_STARTED", threadId: "t", runId: "r" }]);
  });

  it("splits at a gap in the sequence and at a thousand events", () => {
    expect(pages([...tokens(2), ...tokens(2, 10)]).map((page) => page.map((stored) => stored.seq))).toEqual([
      [1, 2],
      [10, 11],
    ]);
    expect(pages(tokens(2500)).map((page) => page.length)).toEqual([1000, 1000, 500]);
  });
});
