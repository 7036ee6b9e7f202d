import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit as honoBodyLimit } from "hono/body-limit";
import { unreadNodeRequest } from "../node-request.ts";

export interface BodyLimitOptions {
  maxSize: number;
  /** Throws the refusal (a `TetherError`). */
  onError: (c: Context) => never;
}

/**
 * Hono's body limit, without building a WHATWG `Request` when Node already
 * says what is coming: a body without one (GET, HEAD) passes, and a declared
 * `Content-Length` is checked as it stands (Node's parser never reads past
 * it). A chunked body goes through Hono's, which counts it as it arrives.
 */
export function bodyLimit(options: BodyLimitOptions): MiddlewareHandler {
  const counting = honoBodyLimit(options);
  return async (c, next) => {
    const incoming = unreadNodeRequest(c);
    if (incoming) {
      if (incoming.method === "GET" || incoming.method === "HEAD") return next();
      const length = incoming.headers["content-length"];
      if (length !== undefined && incoming.headers["transfer-encoding"] === undefined) {
        return Number(length) > options.maxSize ? options.onError(c) : next();
      }
    }
    return counting(c, next);
  };
}
