import type { BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import type { StoredEvent } from "../store/port.ts";

/**
 * An event with its place in the run's log; SSE frames carry it as
 * `id: <runId>:<seq>`. Live events are encoded once, when emitted: `sse` is the
 * encoder's `data:` block and `json` (a slice of it) is what the store writes.
 */
export type SequencedEvent = StoredEvent & { sse?: string };

const encoder = new EventEncoder();

/** Numbers and encodes events from `firstSeq` on: what the stream sends is the text the store keeps. */
export function sequenceEvents(events: BaseEvent[], firstSeq: number): SequencedEvent[] {
  return events.map((event, index) => sequenceEvent(event, firstSeq + index));
}

export function sequenceEvent(event: BaseEvent, seq: number): SequencedEvent {
  const sse = encoder.encodeSSE(event);
  // "data: " + JSON + "\n\n": the JSON is the same text the stream sends.
  return { seq, event, sse, json: sse.slice(6, -2) };
}
