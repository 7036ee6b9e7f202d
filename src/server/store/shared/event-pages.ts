import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { BaseEvent } from "@ag-ui/core";
import type { StoredEvent } from "../port.ts";

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

/** Below this many bytes a page is not compressed: deflating it saves a few hundred bytes and costs a compressor's set-up (about 15 µs) each time. */
const COMPRESS_FROM = 1024;

/**
 * A page as stored: its events as one JSON array in raw deflate. Streamed
 * events repeat their field names and ids, so a long page shrinks some forty
 * times (level 1, because the page is written on the run's path). A short page
 * goes in deflate's stored block, written by hand: any inflater reads it, an
 * older Tether's included, and it costs no compressor.
 */
export function encodePage(page: StoredEvent[]): Buffer {
  const json = Buffer.from(pageJson(page));
  return json.length < COMPRESS_FROM ? storedBlock(json) : deflateRawSync(json, { level: 1 });
}

export function decodePage(body: Uint8Array): BaseEvent[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return JSON.parse((isStoredBlock(bytes) ? bytes.subarray(5) : inflateRawSync(bytes)).toString("utf8")) as BaseEvent[];
}

/** RFC 1951's last block, uncompressed: a header byte (BFINAL 1, BTYPE 00), LEN and its one's complement NLEN, then the bytes. */
function storedBlock(data: Buffer): Buffer {
  const block = Buffer.allocUnsafe(5 + data.length);
  block[0] = 0x01;
  block.writeUInt16LE(data.length, 1);
  block.writeUInt16LE(~data.length & 0xffff, 3);
  data.copy(block, 5);
  return block;
}

/** A deflate stream that is one last stored block and nothing more: its bytes follow the header as they are. */
function isStoredBlock(bytes: Buffer): boolean {
  if (bytes.length < 5 || bytes[0] !== 0x01) return false;
  const length = bytes.readUInt16LE(1);
  return bytes.readUInt16LE(3) === (~length & 0xffff) && bytes.length === 5 + length;
}
