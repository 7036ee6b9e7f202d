import { EventType, type BaseEvent, type TextMessageContentEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import type { StoredEvent } from "../store/index.ts";

/**
 * An event with its place in the run's log; SSE frames carry it as
 * `id: <runId>:<seq>`. Live events are encoded once, when emitted: `sse` is the
 * encoder's `data:` block and `json` (a slice of it) is what the store writes.
 */
export type SequencedEvent = StoredEvent & { sse?: string };

const encoder = new EventEncoder();

/**
 * The streamed event types whose AG-UI shape has only flat fields: for them the
 * encoder's only change is dropping optional fields that are null, so an
 * event with no null field encodes as its plain JSON. Most of a run's events
 * are of these types; skipping the encoder's walk on them is measurable.
 */
const FLAT_TYPES = new Set<string>([
  "TEXT_MESSAGE_START",
  "TEXT_MESSAGE_CONTENT",
  "TEXT_MESSAGE_END",
  "TEXT_MESSAGE_CHUNK",
  "TOOL_CALL_START",
  "TOOL_CALL_ARGS",
  "TOOL_CALL_END",
  "TOOL_CALL_CHUNK",
]);

/** The encoder's `data:` block for the event. */
export function encodeSse(event: BaseEvent): string {
  if (event.type === EventType.TEXT_MESSAGE_CONTENT) {
    const text = textContentSse(event as TextMessageContentEvent);
    if (text) return text;
  }
  if (FLAT_TYPES.has(event.type) && !hasNullField(event)) return `data: ${JSON.stringify(event)}\n\n`;
  return encoder.encodeSSE(event);
}

let lastMessageId = "";
let lastMessageIdJson = '""';

/**
 * The event sent once per token, with nothing but its two strings: its JSON
 * written around them (the message id's JSON kept from the token before) is
 * several times faster than JSON.stringify walking the object, and the same
 * text. Anything more on the event, its fields in another order, or an
 * object that is not a plain one (a class's `toJSON` would change its JSON)
 * takes the general path.
 */
function textContentSse(event: TextMessageContentEvent): string | undefined {
  const { messageId, delta } = event;
  if (typeof messageId !== "string" || typeof delta !== "string" || !isPlain(event) || !hasFieldsInOrder(event, TEXT_CONTENT_FIELDS)) return undefined;
  if (messageId !== lastMessageId) {
    lastMessageId = messageId;
    lastMessageIdJson = JSON.stringify(messageId);
  }
  return `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":${lastMessageIdJson},"delta":${JSON.stringify(delta)}}\n\n`;
}

const TEXT_CONTENT_FIELDS = ["type", "messageId", "delta"];

function isPlain(object: object): boolean {
  const prototype = Object.getPrototypeOf(object) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Whether the object's enumerable fields are exactly these, in this order (JSON.stringify's); on a plain object they are its own. */
function hasFieldsInOrder(object: object, fields: string[]): boolean {
  let index = 0;
  for (const key in object) if (key !== fields[index++]) return false;
  return index === fields.length;
}

function hasNullField(event: BaseEvent): boolean {
  for (const key in event) if ((event as unknown as Record<string, unknown>)[key] === null) return true;
  return false;
}

/** Numbers and encodes events from `firstSeq` on: what the stream sends is the text the store keeps. */
export function sequenceEvents(events: BaseEvent[], firstSeq: number): SequencedEvent[] {
  return events.map((event, index) => sequenceEvent(event, firstSeq + index));
}

export function sequenceEvent(event: BaseEvent, seq: number): SequencedEvent {
  return new LiveEvent(seq, event, encodeSse(event));
}

/**
 * A class, not an object literal, on purpose. V8 watches each literal's allocations, and a literal whose
 * objects mostly outlive a young-generation collection gets its objects made in the old generation from then
 * on. A run's events wait some milliseconds for the store, so a collection at the wrong moment made that
 * call for these: every event was then born old, and each dead one kept its young strings alive through the
 * next collections, in one process out of two or three (scavenges of 7 ms instead of 1; the pipeline
 * benchmark at 0.30–0.35× the bare writer instead of 0.45–0.55×). Objects made by `new` are never moved so.
 */
class LiveEvent implements SequencedEvent {
  readonly json: string;
  constructor(
    readonly seq: number,
    readonly event: BaseEvent,
    readonly sse: string,
  ) {
    // "data: " + JSON + "\n\n": the JSON is the same text the stream sends.
    this.json = sse.slice(6, -2);
  }
}
