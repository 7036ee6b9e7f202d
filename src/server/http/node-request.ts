import { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";

/**
 * The Node request behind a context served by `@hono/node-server`, while
 * nothing has read its body. Reading it straight from Node skips the WHATWG
 * `Request` (its body stream, headers and abort signal) that touching
 * `c.req.raw`'s body would build on every call: a run's request is the
 * server's hottest path. Elsewhere (a Fetch-API host) there is none.
 */
export function unreadNodeRequest(c: Context): IncomingMessage | undefined {
  const { incoming } = nodeBindings(c);
  return incoming instanceof IncomingMessage && !incoming.readableDidRead ? incoming : undefined;
}

/** The whole body of an unread Node request, decoded as UTF-8 the way `Request.text()` does (a byte-order mark dropped). */
export async function readNodeText(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}

/** The Node response behind a context served by `@hono/node-server`, while its headers are unsent: a stream can be written to it directly. */
export function unsentNodeResponse(c: Context): ServerResponse | undefined {
  const { outgoing } = nodeBindings(c);
  return outgoing instanceof ServerResponse && !outgoing.headersSent ? outgoing : undefined;
}

/**
 * Whether the client of a request served by `@hono/node-server` hung up
 * before it was answered. A request can wait in the accept queue of a busy
 * server until its client gives up; its bytes are still read and parsed, but
 * starting the work it asks for would spend the server on nobody. Node reads
 * the hang-up on a later turn of the event loop than the request itself (the
 * read that brought the request stopped short of it), so this waits out this
 * turn and the next poll for I/O before saying. Elsewhere it says no: some
 * Fetch-API hosts abort a request's signal once its body is read, with the
 * client still there.
 */
export async function clientHungUp(c: Context): Promise<boolean> {
  const { incoming } = nodeBindings(c);
  if (!(incoming instanceof IncomingMessage)) return false;
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  // No HTTP/1 client ends its side while it waits for an answer; Node's server takes that end as the client going.
  return incoming.socket.destroyed || incoming.socket.readableEnded;
}

/** What `@hono/node-server` passes as the context's env; nothing on a Fetch-API host. */
function nodeBindings(c: Context): { incoming?: unknown; outgoing?: unknown } {
  return (c.env as { incoming?: unknown; outgoing?: unknown } | undefined) ?? {};
}
