import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { TetherError, toTetherError } from "../../protocol/index.ts";
import { HTTP_STATUS } from "./error-status.ts";
import type { Logger } from "./logger.ts";

/**
 * The one place errors become responses before a stream opens:
 * `{ error: { code, message } }` with the code's status. Anything that is not
 * a TetherError is a bug of ours: logged, and answered as `internal` without
 * a stack trace.
 */
export function errorHandler(logger: Logger) {
  return (thrown: Error, c: Context) => {
    const error = fromHono(thrown) ?? toTetherError(thrown);
    if (error.code === "internal") logger.error(`${c.req.method} ${c.req.path} failed`, thrown);
    // The unread rest of an oversized body makes the connection unusable; say so, so clients do not reuse it.
    if (error.code === "body_too_large") c.header("Connection", "close");
    // Storage trouble passes: say when to come back, so clients and proxies retry instead of giving up.
    if (error.code === "store_unavailable") c.header("Retry-After", "1");
    return c.json(error.toJSON(), HTTP_STATUS[error.code] as ContentfulStatusCode);
  };
}

export function notFoundHandler(c: Context) {
  return c.json(new TetherError("not_found", `There is no route ${c.req.method} ${c.req.path}.`).toJSON(), 404);
}

// Hono's own middleware throws HTTPException; the ones a client can cause get our codes.
function fromHono(error: Error): TetherError | undefined {
  if (!(error instanceof HTTPException)) return undefined;
  if (error.status === 413) return new TetherError("body_too_large", "The request body is larger than this server accepts.");
  if (error.status === 401) return new TetherError("unauthenticated", "Sign in first: send Authorization: Bearer <token>.");
  if (error.status >= 400 && error.status < 500) return new TetherError("invalid_input", error.message || "The request was refused.");
  return undefined;
}
