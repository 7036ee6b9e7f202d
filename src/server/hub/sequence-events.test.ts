import type { BaseEvent } from "@ag-ui/core";
import { EventEncoder } from "@ag-ui/encoder";
import { describe, expect, it } from "vitest";
import { encodeSse, sequenceEvent } from "./sequence-events.ts";

const encoder = new EventEncoder();

/** Events of every type the fast path takes, and of some it leaves to the encoder, with and without null optional fields. */
const EVENTS = [
  { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: 'He said "hi"\n' },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x", timestamp: null, rawEvent: null },
  // Tokens of another message, then of the first again; text JSON must escape; fields the fast path does not write, or in another order.
  { type: "TEXT_MESSAGE_CONTENT", messageId: 'm"2', delta: "π \u2028 \ud800 </script> \\ \t" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x", timestamp: 1700000000000 },
  { type: "TEXT_MESSAGE_CONTENT", delta: "x", messageId: "m1" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x", rawEvent: undefined },
  // Not plain objects: a class whose toJSON changes the JSON, one with an inherited field, one without a prototype.
  new (class {
    type = "TEXT_MESSAGE_CONTENT";
    messageId = "m1";
    delta = "secret";
    toJSON() {
      return { type: this.type, messageId: this.messageId, delta: "[redacted]" };
    }
  })(),
  Object.assign(Object.create({ inherited: "field" }) as object, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x" }),
  Object.assign(Object.create(null) as object, { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "x" }),
  { type: "TEXT_MESSAGE_END", messageId: "m1", metadata: null },
  { type: "TEXT_MESSAGE_CHUNK", messageId: null, delta: "y" },
  { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "navigateToScreen", parentMessageId: null },
  { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"screenId":"MNU-3120"}' },
  { type: "TOOL_CALL_END", toolCallId: "c1", timestamp: 1700000000000 },
  { type: "TOOL_CALL_CHUNK", toolCallId: "c1", toolCallName: null, delta: "{}", rawEvent: { nested: null } },
  { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "success" }, result: null },
  { type: "MESSAGES_SNAPSHOT", messages: [{ id: "u", role: "user", content: "hi", name: null }] },
] as unknown as BaseEvent[];

describe("encoding an event for the stream and the log", () => {
  it.each(EVENTS.map((event) => [event.type, event] as const))("encodes %s exactly as the AG-UI encoder does", (_type, event) => {
    expect(encodeSse(event)).toBe(encoder.encodeSSE(event));
  });

  it("keeps the JSON the store writes a slice of the frame the stream sends", () => {
    const sequenced = sequenceEvent({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "z", timestamp: null } as unknown as BaseEvent, 7);
    expect(sequenced).toMatchObject({ seq: 7, sse: `data: ${sequenced.json}\n\n` });
    expect(JSON.parse(sequenced.json!)).toEqual({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "z" });
  });
});
