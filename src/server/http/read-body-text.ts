import { IncomingMessage } from "node:http";
import type { Context } from "hono";

/**
 * The request body as text. Served by `@hono/node-server` with a declared
 * length (already held to the body limit, and enforced by Node's parser), it
 * is read straight from Node's request: building the WHATWG `Request` that
 * `c.req.text()` reads from costs more than the read itself, on every run.
 * Anywhere else, or once something has started reading it, `c.req.text()`.
 */
export function readBodyText(c: Context): Promise<string> {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (!(incoming instanceof IncomingMessage) || incoming.readableDidRead || c.req.header("content-length") === undefined) return c.req.text();
  return new Promise((resolve, reject) => {
    let text = "";
    incoming.setEncoding("utf8");
    incoming.on("data", (chunk: string) => (text += chunk));
    incoming.once("end", () => resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
    incoming.once("error", reject);
    incoming.once("close", () => reject(new Error("The request was closed before its body ended.")));
  });
}
