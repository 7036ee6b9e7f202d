import { createMiddleware } from "hono/factory";
import { TetherError } from "../../../protocol/index.ts";
import type { Authenticate, TetherUser } from "../../auth/index.ts";
import { authenticatedByAmbientCredentials } from "./ambient-credentials.ts";
import { crossSiteMutation, refuseCrossSite, type SameOriginOptions } from "./same-origin.ts";

export type AuthEnv<User extends TetherUser = TetherUser> = { Variables: { user: User } };

/**
 * Puts the caller on `c.var.user`, or answers 401 `unauthenticated`. A
 * mutation from a page of another origin that the app authenticated by cookie
 * (see `authenticatedByAmbientCredentials`) is refused with 403
 * `cross_origin_request` (CSRF); one authenticated otherwise (Bearer, or an
 * app that reads no cookie) is not, whatever cookies the browser sent along.
 */
export function auth<User extends TetherUser>(authenticate: Authenticate<User>, options: SameOriginOptions & { ambientHeaders?: readonly string[] } = {}) {
  const trusted = new Set(options.trustedOrigins ?? []);
  const ambientHeaders = options.ambientHeaders ?? [];
  return createMiddleware<AuthEnv<User>>(async (c, next) => {
    const user = await authenticate(c.req.raw);
    if (!user) throw new TetherError("unauthenticated", "Missing or invalid credentials: send Authorization: Bearer <token>.");
    const crossSite = crossSiteMutation(c.req.raw, trusted);
    if (crossSite && (await authenticatedByAmbientCredentials(authenticate, c.req.raw, user, ambientHeaders))) refuseCrossSite(crossSite);
    c.set("user", user);
    await next();
  });
}
