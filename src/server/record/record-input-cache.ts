import type { RecordInput } from "../../protocol/index.ts";
import type { RecordTrigger } from "./run-trigger.ts";

/** Runs whose record's request part is kept; each is capped (RECORD_LIMITS), so the cache holds at most a few tens of MB. */
const CACHED_RUNS = 32;

/** What a record says of a run's request: the same on every page, and computed over the whole request. */
export interface RecordRequestPart {
  /** Without `tools`, which come from the run's facts on each read. */
  input: Omit<RecordInput, "tools">;
  trigger: RecordTrigger;
}

/**
 * The request part of the records last read, by run. Redacting and capping a
 * request costs in proportion to the whole request (in client mode the whole
 * history: 23 ms at 700 KB), so a record read in pages would pay it on every
 * page; kept here, only the first read of a run does, and later pages cost
 * what they return. Safe to keep: what it is computed from (the request, the
 * run's first event, the thread before it) never changes once the run began.
 * One per app, never shared between apps; the least recently read goes first.
 */
export interface RecordInputCache {
  get(runId: string): RecordRequestPart | undefined;
  set(runId: string, part: RecordRequestPart): void;
}

export function createRecordInputCache(capacity = CACHED_RUNS): RecordInputCache {
  const parts = new Map<string, RecordRequestPart>();
  return {
    get(runId) {
      const part = parts.get(runId);
      if (part) {
        parts.delete(runId);
        parts.set(runId, part);
      }
      return part;
    },
    set(runId, part) {
      parts.delete(runId);
      parts.set(runId, part);
      if (parts.size > capacity) parts.delete(parts.keys().next().value!);
    },
  };
}
