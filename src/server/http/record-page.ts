import { TetherError } from "../../protocol/index.ts";
import type { RunReport, StoredEvent } from "../store/port.ts";

/**
 * How much one response of `GET /runs/:runId/record` may carry. A run's
 * events (and reports) come in pages: the first page starts at the beginning,
 * and `next`, present while more remain, says where the following one starts.
 */
export interface RecordPageLimits {
  /**
   * Most events and reports in one page, together; a `limit` query may ask
   * for fewer, never more. Default 1000: a long conversational run is a few
   * hundred events, so most records are one page.
   */
  maxItems: number;
  /**
   * Bytes of events and reports (as JSON) after which a page ends. Default
   * 1 MiB. A page always holds at least one item, so a single larger event
   * still comes through, alone; the run itself (its input, at most the
   * request body limit) comes on every page, on top.
   */
  maxBytes: number;
}

export const DEFAULT_RECORD_PAGE_LIMITS: RecordPageLimits = { maxItems: 1000, maxBytes: 1024 * 1024 };

/** Where a page starts: after the event with this sequence number, and after this many reports. */
export interface RecordCursor {
  afterSeq: number;
  afterReport: number;
}

export interface RecordPage {
  events: StoredEvent[];
  reports: RunReport[];
  /** The cursor of the next page; absent when this page holds the rest (as far as the run has got). */
  next?: RecordCursor;
}

/** Reads `?afterSeq=&afterReport=&limit=`; a missing one starts at the beginning, a `limit` over the maximum is lowered to it. */
export function readRecordQuery(query: (name: string) => string | undefined, limits: RecordPageLimits): { cursor: RecordCursor; limit: number } {
  const afterSeq = wholeNumber(query("afterSeq"), "afterSeq", 0) ?? 0;
  const afterReport = wholeNumber(query("afterReport"), "afterReport", 0) ?? 0;
  const limit = Math.min(wholeNumber(query("limit"), "limit", 1) ?? limits.maxItems, limits.maxItems);
  return { cursor: { afterSeq, afterReport }, limit };
}

/**
 * One page of a run's record: events first, then reports, until `limit`
 * items or `maxBytes` of JSON. `events` are the run's events after
 * `cursor.afterSeq`; `readReports` reads all of the run's reports, and is
 * called only once the events are done.
 */
export async function pageRecord(
  events: StoredEvent[],
  readReports: () => Promise<RunReport[]>,
  cursor: RecordCursor,
  limit: number,
  maxBytes: number,
): Promise<RecordPage> {
  let items = 0;
  let bytes = 0;
  // The first item always fits, so every page moves forward.
  const fits = (value: unknown) => {
    const size = Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
    if (items > 0 && (items >= limit || bytes + size > maxBytes)) return false;
    items += 1;
    bytes += size;
    return true;
  };

  const pageEvents: StoredEvent[] = [];
  for (const stored of events) {
    if (!fits(stored)) break;
    pageEvents.push(stored);
  }
  const afterSeq = pageEvents.at(-1)?.seq ?? cursor.afterSeq;
  if (pageEvents.length < events.length) return { events: pageEvents, reports: [], next: { afterSeq, afterReport: cursor.afterReport } };

  const remaining = (await readReports()).slice(cursor.afterReport);
  const pageReports: RunReport[] = [];
  for (const report of remaining) {
    if (!fits(report)) break;
    pageReports.push(report);
  }
  if (pageReports.length < remaining.length)
    return { events: pageEvents, reports: pageReports, next: { afterSeq, afterReport: cursor.afterReport + pageReports.length } };
  return { events: pageEvents, reports: pageReports };
}

function wholeNumber(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min)) throw new TetherError("invalid_input", `${name} must be a whole number of at least ${min}, got "${value.slice(0, 32)}".`);
  return number;
}
