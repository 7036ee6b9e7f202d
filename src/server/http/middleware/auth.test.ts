import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { Authenticate, TetherUser } from "../../auth/index.ts";
import { errorHandler } from "../errors.ts";
import { silentLogger } from "../logger.ts";
import { auth, type AuthEnv } from "./auth.ts";

const USERS: Record<string, TetherUser> = { kim: { id: "kim" }, lee: { id: "lee" } };
const bearerOf = (request: Request) => /^Bearer (\w+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
const cookieOf = (request: Request) => /(?:^|;\s*)session=(\w+)/.exec(request.headers.get("cookie") ?? "")?.[1];

/** The ways apps authenticate: each reads what it reads, and nothing tells Tether which. */
const apps = {
  bearerOnly: ((request) => USERS[bearerOf(request) ?? ""]) satisfies Authenticate,
  noCredentials: (() => USERS.kim) satisfies Authenticate,
  cookieOnly: ((request) => USERS[cookieOf(request) ?? ""]) satisfies Authenticate,
  /** Like the demo's: the Authorization header when there is one, else the cookie. */
  headerElseCookie: ((request) => USERS[(request.headers.has("authorization") ? bearerOf(request) : cookieOf(request)) ?? ""]) satisfies Authenticate,
  /** Falls back to the cookie when the Bearer token is not a good one. */
  bearerOrCookie: ((request) => USERS[bearerOf(request) ?? ""] ?? USERS[cookieOf(request) ?? ""]) satisfies Authenticate,
  /** Prefers the cookie, and reads it by walking every header. */
  cookieFirstByIteration: ((request) => {
    const cookie = [...request.headers].find(([name]) => name === "cookie")?.[1];
    return USERS[/session=(\w+)/.exec(cookie ?? "")?.[1] ?? ""] ?? USERS[bearerOf(request) ?? ""];
  }) satisfies Authenticate,
  basic: ((request) => (request.headers.get("authorization") === "Basic a2ltOg==" ? USERS.kim : undefined)) satisfies Authenticate,
  /** Behind oauth2-proxy: the proxy reads its cookie and sends the user's name in a header. */
  proxyHeader: ((request) => USERS[request.headers.get("x-forwarded-user") ?? ""]) satisfies Authenticate,
  /** Throws where it finds no session cookie, rather than answering undefined. */
  throwsWithoutCookie: ((request) => {
    const user = USERS[cookieOf(request) ?? ""];
    if (!user) throw new Error("no session");
    return user;
  }) satisfies Authenticate,
};

function appWith(authenticate: Authenticate, trustedOrigins: string[] = [], ambientHeaders: string[] = []) {
  const calls = { count: 0 };
  const app = new Hono<AuthEnv>();
  app.onError(errorHandler(silentLogger));
  app.use(
    "*",
    auth((request) => (calls.count++, authenticate(request)), { trustedOrigins, ambientHeaders }),
  );
  app.all("/thing", (c) => c.json({ user: c.var.user.id }));
  return { app, calls };
}

/** Sends to http://tether.test/thing, so the server's own origin is http://tether.test. */
async function send(
  authenticate: Authenticate,
  headers: Record<string, string>,
  options: { method?: string; trustedOrigins?: string[]; ambientHeaders?: string[] } = {},
) {
  const { app, calls } = appWith(authenticate, options.trustedOrigins, options.ambientHeaders);
  const response = await app.request("http://tether.test/thing", { method: options.method ?? "POST", headers });
  const body = (await response.json()) as { user?: string; error?: { code: string } };
  return { status: response.status, user: body.user, code: body.error?.code, calls: calls.count };
}

const crossSite = { "Sec-Fetch-Site": "cross-site", Origin: "http://evil.example" };
const refused = { status: 403, code: "cross_origin_request" };

describe("auth: cross-site mutations", () => {
  it("serves a cross-site Bearer mutation of an app that reads no cookie, stray cookies and all", async () => {
    expect(await send(apps.bearerOnly, { ...crossSite, Authorization: "Bearer kim", Cookie: "session=lee; theme=dark" })).toMatchObject({
      status: 200,
      user: "kim",
    });
  });

  it("serves a cross-site mutation of an app that reads no credentials, like a Vite page proxied with changeOrigin", async () => {
    expect(await send(apps.noCredentials, { ...crossSite, Cookie: "session=lee" })).toMatchObject({ status: 200, user: "kim" });
    expect(await send(apps.noCredentials, { "Sec-Fetch-Site": "same-origin", Origin: "http://127.0.0.1:5173" })).toMatchObject({ status: 200 });
  });

  it("serves a cross-site mutation without a cookie, even of an app that would read one", async () => {
    expect(await send(apps.bearerOrCookie, { ...crossSite, Authorization: "Bearer kim" })).toMatchObject({ status: 200, user: "kim", calls: 1 });
  });

  it("refuses a cross-site mutation the app authenticated by cookie with 403 cross_origin_request", async () => {
    for (const app of [apps.cookieOnly, apps.headerElseCookie, apps.bearerOrCookie, apps.cookieFirstByIteration]) {
      expect(await send(app, { ...crossSite, Cookie: "session=kim" })).toMatchObject(refused);
      expect(await send(app, { Origin: "http://evil.example", Cookie: "session=kim" })).toMatchObject(refused);
      expect(await send(app, { "Sec-Fetch-Site": "same-site", Cookie: "session=kim" })).toMatchObject(refused);
    }
  });

  it("refuses a forged cookie mutation that adds a junk Authorization header: the app still used the cookie", async () => {
    expect(await send(apps.bearerOrCookie, { ...crossSite, Cookie: "session=kim", Authorization: "Bearer junk" })).toMatchObject(refused);
    expect(await send(apps.cookieFirstByIteration, { ...crossSite, Cookie: "session=kim", Authorization: "Bearer junk" })).toMatchObject(refused);
    // The demo's way ignores the cookie once a header is there: the junk header is all it has, so nobody is signed in.
    expect(await send(apps.headerElseCookie, { ...crossSite, Cookie: "session=kim", Authorization: "Bearer junk" })).toMatchObject({
      status: 401,
      code: "unauthenticated",
    });
  });

  it("with both a cookie and a good Bearer header, goes by the one the app used", async () => {
    // Bearer used: another origin cannot attach it, so the request is the app's own.
    expect(await send(apps.headerElseCookie, { ...crossSite, Cookie: "session=lee", Authorization: "Bearer kim" })).toMatchObject({ status: 200, user: "kim" });
    expect(await send(apps.bearerOrCookie, { ...crossSite, Cookie: "session=lee", Authorization: "Bearer kim" })).toMatchObject({ status: 200, user: "kim" });
    // Cookie used (it wins over the header): without it the app finds someone else, so it is refused.
    expect(await send(apps.cookieFirstByIteration, { ...crossSite, Cookie: "session=kim", Authorization: "Bearer lee" })).toMatchObject(refused);
  });

  it("treats Basic credentials like a cookie: a browser sends those by itself", async () => {
    expect(await send(apps.basic, { ...crossSite, Authorization: "Basic a2ltOg==" })).toMatchObject(refused);
    expect(await send(apps.basic, { Origin: "http://tether.test", Authorization: "Basic a2ltOg==" })).toMatchObject({ status: 200, user: "kim" });
  });

  it("refuses a cross-site mutation an auth proxy signed in from its cookie, once the app names the proxy's header as ambient", async () => {
    const proxied = { ...crossSite, Cookie: "_oauth2_proxy=abc", "X-Forwarded-User": "kim" };
    expect(await send(apps.proxyHeader, proxied, { ambientHeaders: ["x-forwarded-user"] })).toMatchObject(refused);
    // Named or not, the same request from the app's own page is served.
    expect(await send(apps.proxyHeader, { "X-Forwarded-User": "kim", Cookie: "_oauth2_proxy=abc" }, { ambientHeaders: ["x-forwarded-user"] })).toMatchObject({
      status: 200,
      user: "kim",
    });
  });

  it("refuses with 403, not a server error, a cross-site cookie mutation of an app whose authenticate throws without the cookie", async () => {
    expect(await send(apps.throwsWithoutCookie, { ...crossSite, Cookie: "session=kim" })).toMatchObject(refused);
  });

  it("serves cookie mutations from the server's own origin and from trusted origins, asking the app once", async () => {
    expect(await send(apps.cookieOnly, { "Sec-Fetch-Site": "same-origin", Origin: "http://tether.test", Cookie: "session=kim" })).toEqual({
      status: 200,
      user: "kim",
      code: undefined,
      calls: 1,
    });
    expect(await send(apps.cookieOnly, { Cookie: "session=kim" })).toMatchObject({ status: 200, calls: 1 });
    const trusted = { trustedOrigins: ["http://127.0.0.1:5173"] };
    expect(await send(apps.cookieOnly, { "Sec-Fetch-Site": "same-origin", Origin: "http://127.0.0.1:5173", Cookie: "session=kim" }, trusted)).toMatchObject({
      status: 200,
      calls: 1,
    });
    expect(await send(apps.cookieOnly, { "Sec-Fetch-Site": "same-origin", Origin: "http://127.0.0.1:5174", Cookie: "session=kim" }, trusted)).toMatchObject(
      refused,
    );
  });

  it("serves cross-site reads by cookie: a GET changes nothing", async () => {
    expect(await send(apps.cookieOnly, { ...crossSite, Cookie: "session=kim" }, { method: "GET" })).toMatchObject({ status: 200, calls: 1 });
  });

  it("answers 401 unauthenticated, not 403, when nobody is signed in", async () => {
    expect(await send(apps.cookieOnly, { ...crossSite, Cookie: "session=nobody" })).toMatchObject({ status: 401, code: "unauthenticated" });
  });

  it("fails closed for an app that reads the body (it should not): the second ask has none, so the cookie is taken to count", async () => {
    const readsBody: Authenticate = async (request) => ((await request.clone().text()) === "kim" ? USERS.kim : undefined);
    const { app } = appWith(readsBody);

    const response = await app.request("http://tether.test/thing", { method: "POST", headers: { ...crossSite, Cookie: "theme=dark" }, body: "kim" });

    expect(response.status).toBe(403);
  });
});
