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

/** A page's events as one JSON array, each event's JSON as it was encoded for the stream when there is one. */
function pageJson(page: StoredEvent[]): string {
  return `[${page.map((stored) => stored.json ?? JSON.stringify(stored.event)).join(",")}]`;
}

/**
 * A page as stored: its events as one JSON array, deflated. Streamed events
 * repeat their field names and ids, so pages shrink some forty times; level 1
 * because the page is written on the run's path.
 */
export function encodePage(page: StoredEvent[]): Buffer {
  return deflateRawSync(pageJson(page), { level: 1 });
}

/** Below this many characters a page is kept as text: deflating it saves a few hundred bytes and costs a compressor's set-up (about 15 µs) each time. */
const PLAIN_BELOW = 1024;

/** A page for a store that tells text from bytes (SQLite): a short page as its JSON text, a longer one deflated. */
export function encodePageOrText(page: StoredEvent[]): Buffer | string {
  const json = pageJson(page);
  return json.length < PLAIN_BELOW ? json : deflateRawSync(json, { level: 1 });
}

/** A stored page's events: JSON text as it is, bytes deflated. */
export function decodePage(body: Uint8Array | string): BaseEvent[] {
  return JSON.parse(typeof body === "string" ? body : inflateRawSync(body).toString("utf8")) as BaseEvent[];
}
