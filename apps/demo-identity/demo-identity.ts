import { randomBytes } from "node:crypto";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { deleteCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { TetherError } from "@tether-agent/tether/protocol";
import {
  consoleLogger,
  errorHandler,
  notFoundHandler,
  readJsonBody,
  readSignedToken,
  requireJson,
  sameOrigin,
  signToken,
  type Authenticate,
  type TetherUser,
} from "@tether-agent/tether/server";

/**
 * DEMO ONLY. Anyone may sign in as any listed user, with no password: it lets
 * the demo apps show permissions without an identity provider. A real app
 * passes its own `authenticate` to `createTetherApp` instead.
 *
 * Tokens are HMAC-SHA256 signed `v1.<payload>.<signature>`; the user's roles
 * are read from the directory on every request, never from the token.
 */
export interface DemoIdentity<User extends TetherUser = TetherUser> {
  authenticate: Authenticate<User>;
  /** Signs a token for a listed user. */
  issueToken(userId: string): string;
  /**
   * `POST /login {"user":"kim"}` → `{ token, user }` (and a cookie), `POST /logout {}`, `GET /users`. Mount
   * under `/api/demo`. POSTs must be `application/json` from the server's own pages (or carry a Bearer token).
   */
  routes: Hono;
  users: User[];
}

export const DEMO_COOKIE = "tether_token";

/** Demo sign-in tokens: `v1.<claims>.<signature>`. */
const TOKEN_KIND = "v1";
const LoginSchema = z.object({ user: z.string().min(1).max(64) });
const PayloadSchema = z.object({ sub: z.string(), iat: z.number(), exp: z.number() });
/** Signed tokens whose claims are kept; past this many (a few hundred kB) they are all forgotten and checked again. */
const VERIFIED_TOKENS_KEPT = 1024;

export function createDemoIdentity<User extends TetherUser>(options: {
  users: User[];
  secret?: string;
  ttlSeconds?: number;
  now?: () => number;
  /** Origins besides the server's own whose pages may sign in and out (see `sameOrigin`). */
  trustedOrigins?: readonly string[];
}): DemoIdentity<User> {
  // A random secret per start unless one is given: tokens then die with the process.
  const secret = options.secret || randomBytes(32).toString("hex");
  const ttl = options.ttlSeconds ?? 12 * 60 * 60;
  const now = () => Math.floor((options.now?.() ?? Date.now()) / 1000);
  const directory = new Map(options.users.map((user) => [user.id, user]));

  const issueToken = (userId: string) => {
    if (!directory.has(userId)) throw new TetherError("user_not_found", `There is no demo user "${userId}".`);
    const issuedAt = now();
    return signToken(TOKEN_KIND, { sub: userId, iat: issuedAt, exp: issuedAt + ttl }, secret);
  };

  // A token's signature is checked once, not on each of its requests: the claims it proved are kept
  // (only a signed token's), and its expiry is checked on every use.
  const verified = new Map<string, z.infer<typeof PayloadSchema>>();
  const verify = (token: string): User | undefined => {
    let claims = verified.get(token);
    if (!claims) {
      const parsed = PayloadSchema.safeParse(readSignedToken(TOKEN_KIND, token, secret));
      if (!parsed.success || parsed.data.exp <= now()) return undefined;
      claims = parsed.data;
      if (verified.size >= VERIFIED_TOKENS_KEPT) verified.clear();
      verified.set(token, claims);
    } else if (claims.exp <= now()) {
      verified.delete(token);
      return undefined;
    }
    return directory.get(claims.sub);
  };

  const authenticate: Authenticate<User> = (request) => {
    const header = request.headers.get("authorization");
    if (header) return header.startsWith("Bearer ") ? verify(header.slice(7).trim()) : undefined;
    const cookie = request.headers.get("cookie");
    const match = cookie?.match(new RegExp(`(?:^|;\\s*)${DEMO_COOKIE}=([^;]+)`));
    if (!match?.[1]) return undefined;
    try {
      return verify(decodeURIComponent(match[1]));
    } catch {
      return undefined; // not percent-encoding: not a token of ours
    }
  };

  const routes = new Hono();
  routes.onError(errorHandler(consoleLogger));
  routes.notFound(notFoundHandler);
  // Sign-in and sign-out set the cookie: another site must not sign the user out, or in as someone else.
  routes.use("*", requireJson(), sameOrigin({ trustedOrigins: options.trustedOrigins ?? [] }));
  routes.use(
    "*",
    bodyLimit({
      maxSize: 4096,
      onError: () => {
        throw new TetherError("body_too_large", 'A sign-in body is {"user":"<id>"}; this one is too large.');
      },
    }),
  );
  routes
    .get("/users", (c) => c.json({ demo: true, users: options.users }))
    .post("/login", async (c) => {
      const { user } = await readJsonBody(c, LoginSchema, 'The body (like {"user":"kim"})');
      const token = issueToken(user);
      setCookie(c, DEMO_COOKIE, token, { httpOnly: true, sameSite: "Strict", path: "/", maxAge: ttl });
      return c.json({ demo: true, token, user: directory.get(user) });
    })
    .post("/logout", (c) => {
      deleteCookie(c, DEMO_COOKIE, { path: "/" });
      return c.json({ demo: true, signedOut: true });
    });

  return { authenticate, issueToken, routes, users: options.users };
}
