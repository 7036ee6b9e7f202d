import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { BaseEvent } from "@ag-ui/core";
import type { StoredEvent } from "./port.ts";

const PAGE_SIZE = 1000;

/** Splits events into runs of consecutive sequence numbers, at most PAGE_SIZE long: one stored page each. */
export function pages(events: StoredEvent[]): StoredEvent[][] {
  const result: StoredEvent[][] = [];
  let page: StoredEvent[] = [];
  for (const stored of events) {
    const last = page.at(-1);
    if (last && (stored.seq !== last.seq + 1 || page.length === PAGE_SIZE)) {
      result.push(page);
      page = [];
    }
    page.push(stored);
  }
  if (page.length > 0) result.push(page);
  return result;
}

/**
 * A page as stored: its events as one JSON array, deflated. Streamed events
 * repeat their field names and ids, so pages shrink some forty times; level 1
 * because the page is written on the run's path.
 */
export function encodePage(page: StoredEvent[]): Buffer {
  return deflateRawSync(`[${page.map((stored) => stored.json ?? JSON.stringify(stored.event)).join(",")}]`, { level: 1 });
}

export function decodePage(body: Uint8Array): BaseEvent[] {
  return JSON.parse(inflateRawSync(body).toString("utf8")) as BaseEvent[];
}
