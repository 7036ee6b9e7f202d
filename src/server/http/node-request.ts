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

/** What `@hono/node-server` passes as the context's env; nothing on a Fetch-API host. */
function nodeBindings(c: Context): { incoming?: unknown; outgoing?: unknown } {
  return (c.env as { incoming?: unknown; outgoing?: unknown } | undefined) ?? {};
}
