import { createMiddleware } from "hono/factory";
import { TetherError } from "../../../protocol/index.ts";
import { isMutatingMethod } from "../mutating-method.ts";

export interface SameOriginOptions {
  /**
   * Origins, besides the server's own, whose pages may send cookie-carried
   * mutations: a frontend served from another origin, or the public origin
   * when a proxy in front rewrites `Host`. Exact matches, such as
   * `"https://app.example.com"`.
   */
  trustedOrigins?: readonly string[];
}

/**
 * Refuses a mutating request (POST, PUT, PATCH, DELETE) sent by a page of
 * another origin with 403 `cross_origin_request`, unless it carries
 * `Authorization: Bearer`.
 *
 * A cookie rides along with every request the browser makes to this host,
 * even one a page on another origin of the same site started; a Bearer header
 * does not, and another origin cannot add it without a CORS preflight this
 * server never grants. So only requests without one are checked:
 * - `Sec-Fetch-Site` (set by the browser, not by scripts) must be
 *   `same-origin` when present; `same-site`, `cross-site` and `none` (typed
 *   in the address bar, not sent by the app's page) are refused;
 * - `Origin`, when present, must name this host (or a trusted origin).
 * Requests with neither header come from something that is not a browser, or
 * from one too old to send them; the cookie's `SameSite=Strict` covers those.
 */
export function sameOrigin(options: SameOriginOptions = {}) {
  const trusted = new Set(options.trustedOrigins ?? []);
  return createMiddleware(async (c, next) => {
    if (isMutatingMethod(c.req.method) && !/^Bearer\s/i.test(c.req.header("authorization") ?? "")) {
      const origin = c.req.header("origin");
      if (!(origin && trusted.has(origin))) {
        const site = c.req.header("sec-fetch-site");
        if (site !== undefined && site !== "same-origin") refuse(`it came from a ${site === "none" ? "page typed or bookmarked by hand" : `${site} page`}`);
        if (origin !== undefined && hostOf(origin) !== new URL(c.req.url).host) refuse(`it came from ${origin}`);
      }
    }
    await next();
  });
}

function refuse(why: string): never {
  throw new TetherError(
    "cross_origin_request",
    `Refused a request authenticated by cookie because ${why}, not from this server's own pages. Send it from the app's own origin, or authenticate with Authorization: Bearer <token>.`,
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
