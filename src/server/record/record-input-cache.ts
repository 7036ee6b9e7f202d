import type { RecordInput, RecordModelCall } from "../../protocol/index.ts";
import type { RecordTrigger } from "./run-trigger.ts";

/** Runs whose record's request part is kept; each is capped (RECORD_LIMITS), so the cache holds at most a few tens of MB. */
const CACHED_RUNS = 32;

/** What a record says of a run's request, and of its model calls once it ended: the same on every page, and computed over the whole request and thread. */
export interface RecordRequestPart {
  /** Without `tools`, which come from the run's facts on each read. */
  input: Omit<RecordInput, "tools">;
  trigger: RecordTrigger;
  /** Once the run ended: its calls, their texts and results redacted and capped (read from the thread's messages). */
  modelCalls?: RecordModelCall[];
}

/**
 * The request part of the records last read, by run. Redacting and capping a
 * request costs in proportion to the whole request (in client mode the whole
 * history: 23 ms at 700 KB), and the model calls need the thread's messages,
 * so a record read in pages would pay both on every page; kept here, only the
 * first read of a run does, and later pages cost what they return. Safe to
 * keep: what the request part is computed from (the request, the run's first
 * event, the thread before it) never changes once the run began, nor an ended
 * run's calls (its facts and the messages it stored). The first level: past
 * it, the parts are read back from the run's facts (record-kept-parts.ts).
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
