import type { ServerResponse } from "node:http";
import { X_ALREADY_SENT } from "./response-already-sent.ts";

/** The writing methods of a Node response an event stream claimed: its own, which nobody else holds. */
export interface ClaimedNodeResponse {
  writeHead(status: number, headers: Record<string, string | string[]>): void;
  write(chunk: Uint8Array | string): boolean;
  flushHeaders(): void;
  end(): void;
}

/**
 * Takes a Node response for an event stream alone, while its handler answers
 * the server adapter with the already-sent mark.
 *
 * `@hono/node-server` 1 then writes nothing to the response. 2 does: when the
 * marked response reaches it as a copy (Hono copies a handler's response into
 * the one a middleware already holds), its lighter `Response` keeps the copy's
 * null body in a cache it answers from without looking at the mark, and it
 * writes the mark's head and ends the response — a `200` with an empty body,
 * before the stream's first event. So the response's writing methods are the
 * stream's alone from here: a head carrying the mark, and the bare `end()`
 * that follows it, are the adapter answering with the mark itself and are
 * dropped. Any other write is an adapter that does not know the mark answering
 * over the stream: `onForeignWrite` is told, and the stream cuts the response
 * loudly rather than letting an empty answer pass for a stream.
 */
export function claimNodeResponse(outgoing: ServerResponse, onForeignWrite: (method: string) => void): ClaimedNodeResponse {
  // The methods as they are before the claim, bound: the stream writes through these alone.
  const end = outgoing.end.bind(outgoing);
  const own: ClaimedNodeResponse = {
    writeHead: outgoing.writeHead.bind(outgoing),
    write: outgoing.write.bind(outgoing),
    flushHeaders: outgoing.flushHeaders.bind(outgoing),
    end: () => void end(),
  };
  let markAnswered = false;
  const refuse = (method: string) => {
    onForeignWrite(method);
    return outgoing;
  };
  Object.assign(outgoing, {
    writeHead(...args: unknown[]) {
      if (!carriesMark(args)) return refuse("writeHead");
      markAnswered = true;
      return outgoing;
    },
    end(...args: unknown[]) {
      const bare = args.every((arg) => arg === undefined || typeof arg === "function");
      if (!markAnswered || !bare) return refuse("end");
      markAnswered = false;
      const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
      if (callback) queueMicrotask(callback);
      return outgoing;
    },
    write: () => (refuse("write"), true),
    flushHeaders: () => void refuse("flushHeaders"),
  });
  return own;
}

/** Whether `writeHead(status[, statusMessage][, headers])` is given the mark among its headers (an object, or name/value pairs). */
function carriesMark(args: unknown[]): boolean {
  const headers = args.find((arg) => typeof arg === "object" && arg !== null);
  if (Array.isArray(headers)) return headers.flat().some((item) => typeof item === "string" && item.toLowerCase() === X_ALREADY_SENT);
  return Object.keys(headers ?? {}).some((name) => name.toLowerCase() === X_ALREADY_SENT);
}
