import type { StoredEvent } from "../store/index.ts";
import { redactPieces, secretSpans } from "./redact/index.ts";

/**
 * The deltas of each streamed text (a message's `TEXT_MESSAGE_CONTENT`, a tool
 * call's `TOOL_CALL_ARGS`) redacted as the whole they add up to: a provider
 * streams a few characters at a time, so a secret is split across deltas that
 * each look harmless. Gives the redacted delta by event seq, for those that changed.
 */
export function redactStreamedDeltas(events: StoredEvent[]): Map<number, string> {
  const streams = new Map<string, StoredEvent[]>();
  for (const stored of events) {
    const { delta, toolCallId, messageId } = stored.event as unknown as { delta?: unknown; toolCallId?: unknown; messageId?: unknown };
    if (typeof delta !== "string") continue;
    const key = typeof toolCallId === "string" ? `call:${toolCallId}` : typeof messageId === "string" ? `message:${messageId}` : undefined;
    if (!key) continue;
    const stream = streams.get(key);
    if (stream) stream.push(stored);
    else streams.set(key, [stored]);
  }
  const redacted = new Map<number, string>();
  for (const stream of streams.values()) {
    const deltas = stream.map((stored) => (stored.event as unknown as { delta: string }).delta);
    const spans = secretSpans(deltas.join(""));
    if (spans.length === 0) continue;
    redactPieces(deltas, spans).forEach((delta, index) => {
      if (delta !== deltas[index]) redacted.set(stream[index]!.seq, delta);
    });
  }
  return redacted;
}
