import { createMiddleware } from "hono/factory";
import { TetherError } from "../../../protocol/index.ts";
import { isMutatingMethod } from "../mutating-method.ts";

export interface SameOriginOptions {
  /**
   * Origins, besides the server's own, whose pages may send cookie-carried
   * mutations: a frontend served from another origin, or the public origin
   * when a proxy in front rewrites `Host` (a dev server's proxy with
   * `changeOrigin: true`). Exact matches, such as `"https://app.example.com"`.
   */
  trustedOrigins?: readonly string[];
}

/**
 * Refuses every mutating request (POST, PUT, PATCH, DELETE) sent by a page of
 * another origin with 403 `cross_origin_request`, unless it carries
 * `Authorization: Bearer`: for routes that act on the cookie without the app's
 * `authenticate`, such as a sign-in that sets it (login CSRF). Tether's own
 * API applies the rule in `auth` instead, to requests the app authenticated
 * by cookie only.
 */
export function sameOrigin(options: SameOriginOptions = {}) {
  const trusted = new Set(options.trustedOrigins ?? []);
  return createMiddleware(async (c, next) => {
    if (!/^Bearer\s/i.test(c.req.header("authorization") ?? "")) {
      const why = crossSiteMutation(c.req.raw, trusted);
      if (why) refuseCrossSite(why);
    }
    await next();
  });
}

/**
 * Why a mutating request did not come from this server's own pages (or a
 * trusted origin's), or undefined when it did, or changes nothing.
 * - `Sec-Fetch-Site` (set by the browser, not by scripts) must be
 *   `same-origin` when present; `same-site`, `cross-site` and `none` (typed
 *   in the address bar, not sent by the app's page) are refused;
 * - `Origin`, when present, must name this host (or a trusted origin).
 * Requests with neither header come from something that is not a browser, or
 * from one too old to send them; the cookie's `SameSite=Strict` covers those.
 */
export function crossSiteMutation(request: Request, trusted: ReadonlySet<string>): string | undefined {
  if (!isMutatingMethod(request.method)) return undefined;
  const origin = request.headers.get("origin");
  if (origin !== null && trusted.has(origin)) return undefined;
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return `it came from a ${site === "none" ? "page typed or bookmarked by hand" : `${site} page`}`;
  if (origin !== null && hostOf(origin) !== new URL(request.url).host) return `it came from ${origin}`;
  return undefined;
}

export function refuseCrossSite(why: string): never {
  throw new TetherError(
    "cross_origin_request",
    `Refused a request authenticated by cookie because ${why}, not from this server's own pages. Send it from the app's own origin (a dev server's proxy keeps the Host header: changeOrigin off), list that origin in trustedOrigins, or authenticate with Authorization: Bearer <token>.`,
  );
}

/** The host:port of an Origin header; `null` (sandboxed frames, some redirects) and garbage match no host. */
function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
