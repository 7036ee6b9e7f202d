import { AGUI_MEDIA_TYPE, EventEncoder } from "@ag-ui/encoder";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Context } from "hono";
import { Buffer } from "node:buffer";
import { ServerResponse } from "node:http";
import type { SequencedEvent } from "../run/hub.ts";

/** A batch of one run's events, as the hub hands them on. */
export interface RunEvents {
  runId: string;
  events: SequencedEvent[];
}

export interface EventStreamOptions {
  /** Called once when the stream ends: `clientGone` when the client went away first. */
  onClose(clientGone: boolean): void;
  headers?: Record<string, string>;
}

/**
 * Streams events as SSE (each frame `id: <runId>:<seq>`, so a client can come
 * back with `Last-Event-ID`) or, when `Accept` asks for it, as AG-UI protobuf.
 * Each batch becomes one write. The source is pulled only as fast as the
 * client reads; a client that goes away stops the stream, never the run.
 *
 * Served by `@hono/node-server`, the batches are written straight to Node's
 * response (headers with the first batch, no web stream between): a run's
 * stream is the server's hottest path. Headers a middleware sets before the
 * handler are kept; ones it would set after it are not, as for any stream
 * already under way.
 */
export function eventStreamResponse(c: Context, source: AsyncIterable<RunEvents>, options: EventStreamOptions): Response {
  const accept = c.req.header("accept");
  // Protobuf only when asked for by name: a client sending */* (curl, most fetches) gets SSE.
  const encoder = new EventEncoder(accept?.includes(AGUI_MEDIA_TYPE) ? { accept } : {});
  const contentType = encoder.getContentType();
  const encode = contentType === "text/event-stream" ? encodeSse(encoder) : encodeProtobuf(encoder);
  // What middleware set before the handler (CORS, cookies), then the stream's own.
  const headers = new Headers(c.res.headers);
  const own = { "content-type": contentType, "cache-control": "no-cache, no-transform", "x-accel-buffering": "no", ...options.headers };
  for (const [name, value] of Object.entries(own)) headers.set(name, value);
  const iterator = source[Symbol.asyncIterator]();
  let closed = false;
  const close = (clientGone: boolean) => {
    if (closed) return;
    closed = true;
    options.onClose(clientGone);
  };

  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (outgoing instanceof ServerResponse && !outgoing.headersSent) {
    const nodeHeaders: Record<string, string | string[]> = {};
    headers.forEach((value, name) => (nodeHeaders[name] = value));
    const cookies = headers.getSetCookie();
    if (cookies.length > 0) nodeHeaders["set-cookie"] = cookies;
    outgoing.writeHead(200, nodeHeaders);
    void writeToNode(outgoing, iterator, encode, close);
    return RESPONSE_ALREADY_SENT;
  }

  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) {
          controller.close();
          close(false);
        } else {
          controller.enqueue(encode(value));
        }
      } catch (error) {
        controller.error(error);
        close(false);
      }
    },
    async cancel() {
      close(true);
      await iterator.return?.();
    },
  });
  return new Response(body, { headers });
}

async function writeToNode(
  outgoing: ServerResponse,
  iterator: AsyncIterator<RunEvents>,
  encode: (batch: RunEvents) => Uint8Array,
  close: (clientGone: boolean) => void,
): Promise<void> {
  const gone = () => {
    if (outgoing.writableFinished) return;
    close(true);
    void iterator.return?.();
  };
  outgoing.once("close", gone);
  try {
    let next = iterator.next();
    // The headers go out with the first batch, or alone when it is not at hand: a client waits for them.
    if (!(await settlesSoon(next))) outgoing.flushHeaders();
    for (;;) {
      const { done, value } = await next;
      if (done || outgoing.destroyed) break;
      if (!outgoing.write(encode(value))) await drained(outgoing);
      next = iterator.next();
    }
    outgoing.end();
    close(false);
  } catch (error) {
    // Cut, not ended: the client sees a stream without its end and can reconnect.
    outgoing.destroy(error instanceof Error ? error : new Error(String(error)));
    close(false);
  }
}

function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setImmediate(resolve, false)),
  ]);
}

function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("drain", done);
      outgoing.off("close", done);
      resolve();
    };
    outgoing.on("drain", done);
    outgoing.on("close", done);
  });
}

function encodeSse(encoder: EventEncoder) {
  return ({ runId, events }: RunEvents): Uint8Array => {
    let frames = "";
    for (const { seq, event, sse } of events) frames += `id: ${runId}:${seq}\n${sse ?? encoder.encodeSSE(event)}`;
    return Buffer.from(frames);
  };
}

function encodeProtobuf(encoder: EventEncoder) {
  return ({ events }: RunEvents): Uint8Array => {
    const parts = events.map(({ event }) => encoder.encodeProtobuf(event));
    const bytes = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
    let offset = 0;
    for (const part of parts) {
      bytes.set(part, offset);
      offset += part.length;
    }
    return bytes;
  };
}
