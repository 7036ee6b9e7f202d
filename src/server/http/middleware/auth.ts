import { createMiddleware } from "hono/factory";
import { TetherError } from "../../../protocol/index.ts";
import type { Authenticate, TetherUser } from "../../auth/user.ts";

export type AuthEnv = { Variables: { user: TetherUser } };

/** Puts the caller on `c.var.user`, or answers 401 `unauthenticated`. */
export function auth(authenticate: Authenticate) {
  return createMiddleware<AuthEnv>(async (c, next) => {
    const user = await authenticate(c.req.raw);
    if (!user) throw new TetherError("unauthenticated", "Missing or invalid credentials: send Authorization: Bearer <token>.");
    c.set("user", user);
    await next();
  });
}
