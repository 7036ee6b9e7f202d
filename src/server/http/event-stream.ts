import { AGUI_MEDIA_TYPE, EventEncoder } from "@ag-ui/encoder";
import { Buffer } from "node:buffer";
import type { SequencedEvent } from "../run/hub.ts";

/** A batch of one run's events, as the hub hands them on. */
export interface RunEvents {
  runId: string;
  events: SequencedEvent[];
}

/**
 * Streams events as SSE (each frame `id: <runId>:<seq>`, so a client can come
 * back with `Last-Event-ID`) or, when `Accept` asks for it, as AG-UI protobuf.
 * Each batch becomes one write. The source is pulled only as fast as the
 * client reads; a client that goes away stops the stream, never the run.
 */
export function eventStreamResponse(source: AsyncIterable<RunEvents>, accept: string | undefined, onClose: (clientGone: boolean) => void): Response {
  // Protobuf only when asked for by name: a client sending */* (curl, most fetches) gets SSE.
  const encoder = new EventEncoder(accept?.includes(AGUI_MEDIA_TYPE) ? { accept } : {});
  const contentType = encoder.getContentType();
  const binary = contentType !== "text/event-stream";
  const iterator = source[Symbol.asyncIterator]();

  const encode = ({ runId, events }: RunEvents): Uint8Array => {
    if (!binary) {
      let frames = "";
      for (const { seq, event, sse } of events) frames += `id: ${runId}:${seq}\n${sse ?? encoder.encodeSSE(event)}`;
      return Buffer.from(frames);
    }
    const parts = events.map(({ event }) => encoder.encodeProtobuf(event));
    const bytes = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      bytes.set(part, offset);
      offset += part.length;
    }
    return bytes;
  };

  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) {
          controller.close();
          onClose(false);
        } else {
          controller.enqueue(encode(value));
        }
      } catch (error) {
        controller.error(error);
        onClose(false);
      }
    },
    async cancel() {
      onClose(true);
      await iterator.return?.();
    },
  });
  return new Response(body, {
    headers: { "Content-Type": contentType, "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" },
  });
}
