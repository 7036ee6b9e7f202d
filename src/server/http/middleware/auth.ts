import { createMiddleware } from "hono/factory";
import { TetherError } from "../../../protocol/index.ts";
import type { Authenticate, TetherUser } from "../../auth/index.ts";

export type AuthEnv<User extends TetherUser = TetherUser> = { Variables: { user: User } };

/** Puts the caller on `c.var.user`, or answers 401 `unauthenticated`. */
export function auth<User extends TetherUser>(authenticate: Authenticate<User>) {
  return createMiddleware<AuthEnv<User>>(async (c, next) => {
    const user = await authenticate(c.req.raw);
    if (!user) throw new TetherError("unauthenticated", "Missing or invalid credentials: send Authorization: Bearer <token>.");
    c.set("user", user);
    await next();
  });
}
