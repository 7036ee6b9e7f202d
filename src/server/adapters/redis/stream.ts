import { EventType, type BaseEvent } from "@ag-ui/core";
import type { SequencedEvent } from "../../hub/index.ts";

/**
 * How a run's events sit in Redis: one stream per run, `<prefix>run:<runId>`,
 * one entry per event, whose id is `<seq>-0`. The id is the event's number, so
 * `XREAD … <seq>-0` gives exactly the events after `seq`: a follower that
 * switches from the store to the stream dedupes by the id alone.
 */
export const DEFAULT_REDIS_PREFIX = "tether:";

/**
 * Entries a stream keeps (at least; trimming is approximate). Twice
 * UNSTORED_EVENT_LIMIT: the publisher is never more than that limit ahead of
 * the store, so an entry trimmed away is always in the store already.
 */
export const STREAM_MAXLEN = 8192;
/** How long a running run's stream lives after its last event: a safety net for an instance that died with it. */
export const LIVE_STREAM_TTL_MS = 6 * 60 * 60 * 1000;
/** How long a stream stays after its terminal event; by then the store has the whole run. */
export const ENDED_STREAM_TTL_MS = 60 * 1000;

export const streamKey = (prefix: string, runId: string) => `${prefix}run:${runId}`;
export const entryId = (seq: number) => `${seq}-0`;

export const isTerminal = (event: BaseEvent) => event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR;

/** An entry as XADD takes it: the event's JSON, the same text the store keeps and SSE sends. */
export function encodeEntry(event: SequencedEvent): string {
  return event.json ?? JSON.stringify(event.event);
}

/** Entries as XREAD and XRANGE return them (`[id, [field, value, …]]`), back to events. */
export function decodeEntries(entries: [id: string, fields: string[]][]): SequencedEvent[] {
  return entries.map(([id, fields]) => {
    const json = fields[fields.indexOf("e") + 1]!;
    return { seq: Number.parseInt(id, 10), event: JSON.parse(json) as BaseEvent, json, sse: `data: ${json}\n\n` };
  });
}
