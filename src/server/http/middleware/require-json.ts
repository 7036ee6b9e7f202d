import { createMiddleware } from "hono/factory";
import { TetherError } from "../../../protocol/index.ts";
import { isMutatingMethod } from "../mutating-method.ts";

// application/json or a +json type (application/merge-patch+json), with optional parameters such as charset.
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Whether a Content-Type header names JSON. */
export function isJsonContentType(contentType: string | undefined): boolean {
  return JSON_TYPE.test(contentType ?? "");
}

/**
 * Refuses a mutating request (POST, PUT, PATCH, DELETE) whose Content-Type is
 * not JSON with 415 `unsupported_media_type`, before anything reads it.
 *
 * Why it matters beyond tidiness: a page on another origin can send
 * `text/plain`, form and multipart bodies without a CORS preflight, and the
 * browser attaches the cookie. `application/json` from another origin always
 * needs a preflight, which this server never grants.
 */
export function requireJson() {
  return createMiddleware(async (c, next) => {
    if (isMutatingMethod(c.req.method) && !isJsonContentType(c.req.header("content-type"))) {
      const type = c.req.header("content-type");
      throw new TetherError(
        "unsupported_media_type",
        // No path in the words: behind createAgentHandlers the path here is not the one the client called.
        `Send this ${c.req.method} with Content-Type: application/json (got ${type ? `"${type}"` : "no Content-Type"}).`,
      );
    }
    await next();
  });
}
