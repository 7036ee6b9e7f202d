import { TetherError } from "../../protocol/index.ts";
import type { EventPageRequest } from "../record/index.ts";

/**
 * How many of a run's events one response of `GET /runs/:runId/record`
 * carries. The rest of the record (start, input, model calls, surfaces,
 * reports) comes whole on every page, each value capped; the events come in
 * pages: the first starts at the beginning, and `output.next`, present while
 * more remain, says where the following one starts (`?afterSeq=`).
 */
export interface RecordPageLimits {
  /**
   * Most events in one page; a `limit` query may ask for fewer, never more.
   * Default 1000: a long conversational run is a few hundred events, so most
   * records are one page.
   */
  maxItems: number;
  /**
   * Bytes of events (as JSON, each capped at 16 KiB) after which a page ends.
   * Default 1 MiB. A page always holds at least one event.
   */
  maxBytes: number;
}

export const DEFAULT_RECORD_PAGE_LIMITS: RecordPageLimits = { maxItems: 1000, maxBytes: 1024 * 1024 };

/** Reads `?afterSeq=&limit=`; a missing one starts at the beginning, a `limit` over the maximum is lowered to it. */
export function readRecordQuery(query: (name: string) => string | undefined, limits: RecordPageLimits): EventPageRequest {
  const afterSeq = wholeNumber(query("afterSeq"), "afterSeq", 0) ?? 0;
  const limit = Math.min(wholeNumber(query("limit"), "limit", 1) ?? limits.maxItems, limits.maxItems);
  return { afterSeq, limit, maxChars: limits.maxBytes };
}

function wholeNumber(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const number = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= min)) throw new TetherError("invalid_input", `${name} must be a whole number of at least ${min}, got "${value.slice(0, 32)}".`);
  return number;
}
