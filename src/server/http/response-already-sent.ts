/**
 * `@hono/node-server`'s mark on a response its handler already wrote to
 * Node's own response: 1's listener then writes nothing; 2's may still write
 * the marked response's head and end it, which claimNodeResponse drops. Made
 * here with the same header (the listeners read the header, not the object),
 * so the core loads without that package, an optional peer: only a request
 * it serves ever takes this path.
 */
export const X_ALREADY_SENT = "x-hono-already-sent";

/** Shared by every request, as `@hono/node-server`'s own is: never written into. */
export const RESPONSE_ALREADY_SENT = new Response(null, { headers: { [X_ALREADY_SENT]: "true" } });
