import { TetherError } from "../../protocol/index.ts";
import { upstreamFailure } from "./upstream-failure.ts";

/** How much of a failed answer's body is read for its message (cut to 300 characters after): never all of it. */
const ERROR_BODY_BYTES = 8 * 1024;
/** Redirects followed within the configured origin (a trailing slash added, a path moved). */
const MAX_REDIRECTS = 3;

/**
 * One request to an upstream endpoint, answered with a 2xx or a TetherError.
 *
 * Redirects are not left to `fetch`, which follows any to any host, with the
 * request's headers (the upstream's credentials, who is asking): Tether
 * follows only 307 and 308 (which keep the POST and its body) within the
 * configured origin, and refuses the rest, naming the target in the error's
 * cause (the server's log) but not in its message (the client's).
 * A failed answer's body is read up to 8 KiB: an upstream's 500 may be
 * gigabytes long.
 */
export async function fetchUpstream(url: URL, init: RequestInit): Promise<Response> {
  let target = url;
  for (let hops = 0; ; hops++) {
    let response: Response;
    try {
      response = await fetch(target, { ...init, redirect: "manual" });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw upstreamFailure("upstream_unavailable", "could not be reached", describe(error));
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get("location");
      const next = location !== null && URL.canParse(location, target) ? new URL(location, target) : undefined;
      const sameOrigin = next?.origin === url.origin;
      if (next && sameOrigin && (response.status === 307 || response.status === 308) && hops < MAX_REDIRECTS) {
        target = next;
        continue;
      }
      const where = !next ? "without a valid location" : sameOrigin ? "within its origin" : "to another origin";
      // A redirect Tether will not follow is the configuration's fault: trying again changes nothing.
      throw new TetherError(
        "upstream_error",
        `The upstream agent answered with a redirect (HTTP ${response.status}) ${where}; Tether follows only up to ${MAX_REDIRECTS} 307 or 308 redirects within the configured origin. Set the agent's upstream url to where the agent answers.`,
        { cause: new Error(`Redirected from ${target.href} to ${location ?? "nowhere"}.`) },
      );
    }
    if (!response.ok) throw upstreamFailure(failureCode(response.status), `answered HTTP ${response.status}`, await readSome(response, ERROR_BODY_BYTES));
    return response;
  }
}

/**
 * A refusal (401 for a wrong token, 404, 422 for an input it does not take) will be refused again:
 * `upstream_error`. An upstream that is down, overloaded or slow (5xx, 408, 429) may answer later:
 * `upstream_unavailable`, which a client may retry.
 */
function failureCode(status: number): "upstream_error" | "upstream_unavailable" {
  return status >= 500 || status === 408 || status === 429 ? "upstream_unavailable" : "upstream_error";
}

/** The first `limit` bytes of a body as text; the rest is never read. */
async function readSome(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const pieces: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces.push(value);
      length += value.length;
    }
  } catch {
    // What came before the failure is the message.
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) bytes.set(piece, (at += piece.length) - piece.length);
  return new TextDecoder().decode(bytes.subarray(0, limit));
}

/** `fetch failed` says little: its cause says why (ECONNREFUSED, a TLS error). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const why = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : undefined;
  return why ? `${message} (${why})` : message;
}
