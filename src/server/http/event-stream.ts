import { AGUI_MEDIA_TYPE, EventEncoder } from "@ag-ui/encoder";
import type { Context } from "hono";
import { Buffer } from "node:buffer";
import type { ServerResponse } from "node:http";
import { toTetherError } from "../../protocol/index.ts";
import type { SequencedEvent } from "../hub/index.ts";
import { claimNodeResponse, type ClaimedNodeResponse } from "./claim-node-response.ts";
import type { Logger } from "./logger.ts";
import { unsentNodeResponse } from "./node-request.ts";
import { RESPONSE_ALREADY_SENT, X_ALREADY_SENT } from "./response-already-sent.ts";

/** A batch of one run's events, as the hub hands them on; an event with `seq` 0 is no event of the log, and goes without an SSE id. */
export interface RunEvents {
  runId: string;
  events: SequencedEvent[];
}

export interface EventStreamOptions {
  /** Called once when the stream ends: `clientGone` when the client went away first. */
  onClose(clientGone: boolean): void;
  headers?: Record<string, string>;
  /** Told when the server adapter writes over a stream it was told is already sent (one that does not know the mark). */
  logger: Logger;
}

/**
 * Streams events as SSE (each frame `id: <runId>:<seq>`, so a client can come
 * back with `Last-Event-ID`) or, when `Accept` asks for it, as AG-UI protobuf.
 * Each batch becomes one write. The source is pulled only as fast as the
 * client reads; a client that goes away stops the stream, never the run.
 *
 * Served by `@hono/node-server` (1 or 2), the batches are written straight to
 * Node's response (headers with the first batch, no web stream between): a
 * run's stream is the server's hottest path. Headers a middleware sets before
 * the handler are kept, and so are ones it sets after it without waiting on
 * anything (CORS's Vary, secure headers): they are taken a turn of the event
 * loop after the handler returns.
 *
 * A stream that would be empty is never a quiet `200`. Where the context holds
 * no Node response (a Fetch-API host, a Node adapter that passes none, HTTP/2),
 * the stream is the body of the `Response` returned: every host that serves a
 * `Response` streams its body, so that is the honest way there, just slower.
 * Where it holds one, the adapter is told the response is already sent and the
 * response is claimed from it (claimNodeResponse): its answer with the mark is
 * dropped, and any other write over the stream cuts it and is logged, naming
 * the cause, at the first request.
 */
export function eventStreamResponse(c: Context, source: AsyncIterable<RunEvents>, options: EventStreamOptions): Response {
  const accept = c.req.header("accept");
  // Protobuf only when asked for by name: a client sending */* (curl, most fetches) gets SSE.
  const encoder = new EventEncoder(accept?.includes(AGUI_MEDIA_TYPE) ? { accept } : {});
  const contentType = encoder.getContentType();
  const encode = contentType === "text/event-stream" ? encodeSse(encoder) : encodeProtobuf(encoder);
  const own = { "content-type": contentType, "cache-control": "no-cache, no-transform", "x-accel-buffering": "no", ...options.headers };
  const iterator = source[Symbol.asyncIterator]();
  let closed = false;
  const close = (clientGone: boolean) => {
    if (closed) return;
    closed = true;
    options.onClose(clientGone);
  };

  const outgoing = unsentNodeResponse(c);
  if (outgoing) {
    // Hono's response made now, with what middleware set so far: Hono then copies RESPONSE_ALREADY_SENT into it,
    // rather than holding (and middleware after the handler writing into) that shared one.
    void c.res;
    const claimed = claimNodeResponse(outgoing, (method) => {
      if (closed) return;
      const cause = `The server adapter called ${method}() on a Node response Tether's event stream writes itself, ignoring the ${X_ALREADY_SENT} mark its handler answered with; the stream was cut. Either a middleware around Tether's routes replaced their response (let it pass responses marked ${X_ALREADY_SENT} through untouched), or the adapter is not one Tether knows: serve Tether with @hono/node-server 1 or 2, or with listen() from @tether-agent/tether/node.`;
      options.logger.error(cause);
      close(false);
      void iterator.return?.();
      outgoing.destroy(new Error(cause));
    });
    void writeToNode(outgoing, claimed, () => nodeHeaders(c.res.headers, own), iterator, encode, close);
    return RESPONSE_ALREADY_SENT;
  }

  // What middleware set before the handler (CORS, cookies), then the stream's own; Hono adds what it sets after.
  const headers = new Headers(c.res.headers);
  for (const [name, value] of Object.entries(own)) headers.set(name, value);

  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await iterator.next();
        if (done) {
          controller.close();
          close(false);
        } else {
          const chunk = encode(value);
          controller.enqueue(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
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

/**
 * Why a stream's follow of the hub stops once the stream closed: one reason for all, as `abort()` without
 * one builds a DOMException and its stack for every stream. A plain Error, not a TetherError: it is an
 * abort reason the follow ends on quietly, never thrown to a caller nor answered to a client.
 */
export const STREAM_CLOSED = new Error("The event stream closed.");

/**
 * What middleware set around the handler (CORS, cookies, secure headers; by
 * now in the response Hono holds, marked as already sent), then the stream's own.
 */
function nodeHeaders(set: Headers, own: Record<string, string>): Record<string, string | string[]> {
  const headers = new Headers(set);
  headers.delete(X_ALREADY_SENT);
  for (const [name, value] of Object.entries(own)) headers.set(name, value);
  const record: Record<string, string | string[]> = {};
  headers.forEach((value, name) => (record[name] = value));
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record["set-cookie"] = cookies;
  return record;
}

async function writeToNode(
  outgoing: ServerResponse,
  claimed: ClaimedNodeResponse,
  head: () => Record<string, string | string[]>,
  iterator: AsyncIterator<RunEvents>,
  encode: (batch: RunEvents) => Uint8Array | string,
  close: (clientGone: boolean) => void,
): Promise<void> {
  const gone = () => {
    if (outgoing.writableFinished) return;
    close(true);
    void iterator.return?.();
  };
  // Gone before the handler answered (while a run was starting, say): 'close' has been and will not come again.
  if (outgoing.destroyed) return gone();
  outgoing.once("close", gone);
  try {
    let next = iterator.next();
    let ready = false;
    next.then(
      () => (ready = true),
      () => (ready = true),
    );
    // The headers are taken once the middleware around the handler has run (what it sets after the handler goes out too),
    // and go out with the first batch, or alone when it is not at hand: a client waits for them.
    await new Promise((resolve) => setImmediate(resolve));
    if (outgoing.destroyed) return gone();
    claimed.writeHead(200, head());
    if (!ready) claimed.flushHeaders();
    for (;;) {
      const { done, value } = await next;
      if (done) break;
      if (outgoing.destroyed) return gone();
      if (!claimed.write(encode(value))) await drained(outgoing);
      next = iterator.next();
    }
    claimed.end();
    close(false);
  } catch (error) {
    // Cut, not ended: the client sees a stream without its end and can reconnect. What was just written may still be
    // held (Node corks a response's socket at each write until the next tick), and destroy() would drop it: it goes out first.
    while (outgoing.writableCorked > 0) outgoing.uncork();
    // A non-Error thrown is a bug of ours: `internal`, kept as the cause (destroy() takes an Error).
    outgoing.destroy(error instanceof Error ? error : toTetherError(error));
    close(false);
  }
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

/** A batch's SSE frames as text: Node's response writes a string as UTF-8 itself, sparing a Buffer per batch. */
function encodeSse(encoder: EventEncoder) {
  return ({ runId, events }: RunEvents): string => {
    let frames = "";
    for (const { seq, event, sse } of events) frames += `${seq > 0 ? `id: ${runId}:${seq}\n` : ""}${sse ?? encoder.encodeSSE(event)}`;
    return frames;
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
