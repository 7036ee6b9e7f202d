import { Hono } from "hono";
import { describe, expect, it, vi } from "vitest";
import { errorHandler, readSignedToken, silentLogger } from "@tether-agent/tether/server";
import { KIM, LEE } from "../../test/fixtures/messages.ts";
import { DEMO_COOKIE, createDemoIdentity } from "./demo-identity.ts";

// The signature check, watched: a token's is checked once, not on each request.
vi.mock("@tether-agent/tether/server", async (importOriginal) => {
  const server = await importOriginal<typeof import("@tether-agent/tether/server")>();
  return { ...server, readSignedToken: vi.fn(server.readSignedToken) };
});

const SECRET = "demo-secret-for-tests";
const START = Date.UTC(2025, 0, 15, 9, 0, 0);

function identityAt(clock: { now: number }, options: { secret?: string; users?: (typeof KIM)[]; ttlSeconds?: number } = {}) {
  return createDemoIdentity({
    users: options.users ?? [KIM, LEE],
    secret: options.secret ?? SECRET,
    ttlSeconds: options.ttlSeconds ?? 60,
    now: () => clock.now,
  });
}

const withBearer = (token: string) => new Request("http://tether.test/api/threads/t1", { headers: { authorization: `Bearer ${token}` } });
const withCookie = (cookie: string) => new Request("http://tether.test/api/threads/t1", { headers: { cookie } });

/** Replaces one dot-separated part of a token. */
function replacePart(token: string, index: number, part: string): string {
  const parts = token.split(".");
  parts[index] = part;
  return parts.join(".");
}

describe("createDemoIdentity", () => {
  describe("authenticate", () => {
    it("returns the user of a token sent as Authorization: Bearer", async () => {
      const identity = identityAt({ now: START });

      expect(await identity.authenticate(withBearer(identity.issueToken("kim")))).toEqual(KIM);
    });

    it("returns the user of a token sent in the tether_token cookie", async () => {
      const identity = identityAt({ now: START });
      const token = identity.issueToken("lee");

      expect(DEMO_COOKIE).toBe("tether_token");
      expect(await identity.authenticate(withCookie(`theme=dark; tether_token=${encodeURIComponent(token)}; lang=en`))).toEqual(LEE);
    });

    it("reads the user's roles from the directory, not from the token", async () => {
      const clock = { now: START };
      const token = identityAt(clock).issueToken("kim");
      const promoted = { ...KIM, roles: ["clerk", "manager"] };

      expect(await identityAt(clock, { users: [promoted] }).authenticate(withBearer(token))).toEqual(promoted);
    });

    it("issues tokens shaped v1.<payload>.<signature>", () => {
      const token = identityAt({ now: START }).issueToken("kim");
      const [version, payload, signature] = token.split(".");

      expect(token.split(".")).toHaveLength(3);
      expect(version).toBe("v1");
      expect(JSON.parse(Buffer.from(payload!, "base64url").toString("utf8"))).toEqual({ sub: "kim", iat: START / 1000, exp: START / 1000 + 60 });
      expect(signature).toMatch(/^[A-Za-z0-9_-]+$/);
    });

    it("refuses to issue a token for a user not in the directory with user_not_found", () => {
      expect(() => identityAt({ now: START }).issueToken("mallory")).toThrow(expect.objectContaining({ code: "user_not_found" }));
    });

    it("returns undefined without credentials", async () => {
      expect(await identityAt({ now: START }).authenticate(new Request("http://tether.test/"))).toBeUndefined();
    });

    it("returns undefined for a token whose payload was changed to another user", async () => {
      const identity = identityAt({ now: START });
      const token = identity.issueToken("kim");
      const forged = Buffer.from(JSON.stringify({ sub: "lee", iat: START / 1000, exp: START / 1000 + 60 })).toString("base64url");

      expect(await identity.authenticate(withBearer(replacePart(token, 1, forged)))).toBeUndefined();
    });

    it("returns undefined for a token whose signature was changed", async () => {
      const identity = identityAt({ now: START });
      const token = identity.issueToken("kim");
      const signature = token.split(".")[2]!;
      const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);

      expect(await identity.authenticate(withBearer(replacePart(token, 2, flipped)))).toBeUndefined();
      expect(await identity.authenticate(withBearer(replacePart(token, 2, signature.slice(1))))).toBeUndefined();
    });

    it("returns undefined for a token of another version", async () => {
      const identity = identityAt({ now: START });

      expect(await identity.authenticate(withBearer(replacePart(identity.issueToken("kim"), 0, "v2")))).toBeUndefined();
    });

    it("returns undefined for a token with an extra part", async () => {
      const identity = identityAt({ now: START });

      expect(await identity.authenticate(withBearer(`${identity.issueToken("kim")}.extra`))).toBeUndefined();
    });

    it("accepts a token until its ttl has passed, and not after", async () => {
      const clock = { now: START };
      const identity = identityAt(clock, { ttlSeconds: 60 });
      const token = identity.issueToken("kim");

      clock.now = START + 59_000;
      expect(await identity.authenticate(withBearer(token))).toEqual(KIM);
      clock.now = START + 60_000;
      expect(await identity.authenticate(withBearer(token))).toBeUndefined();
    });

    it("checks a token's signature once, however many requests carry it", async () => {
      const clock = { now: START };
      const identity = identityAt(clock);
      const token = identity.issueToken("kim");
      vi.mocked(readSignedToken).mockClear();
      for (let request = 0; request < 5; request++) expect(await identity.authenticate(withBearer(token))).toEqual(KIM);
      expect(await identity.authenticate(withCookie(`${DEMO_COOKIE}=${token}`))).toEqual(KIM);
      expect(readSignedToken).toHaveBeenCalledTimes(1);
    });

    it("refuses a token altered after it was accepted, and one that has expired since", async () => {
      const clock = { now: START };
      const identity = identityAt(clock, { ttlSeconds: 60 });
      const token = identity.issueToken("kim");
      expect(await identity.authenticate(withBearer(token))).toEqual(KIM);

      const [, payload] = token.split(".");
      const claims = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as Record<string, unknown>;
      const asLee = replacePart(token, 1, Buffer.from(JSON.stringify({ ...claims, sub: "lee" })).toString("base64url"));
      expect(await identity.authenticate(withBearer(asLee))).toBeUndefined();
      expect(await identity.authenticate(withBearer(`${token}x`))).toBeUndefined();
      expect(await identity.authenticate(withBearer(token))).toEqual(KIM);
      clock.now = START + 60_000;
      expect(await identity.authenticate(withBearer(token))).toBeUndefined();
    });

    it("returns undefined for a token signed with another secret", async () => {
      const clock = { now: START };
      const token = identityAt(clock, { secret: "another-server" }).issueToken("kim");

      expect(await identityAt(clock).authenticate(withBearer(token))).toBeUndefined();
    });

    it("returns undefined for a valid token of a user no longer in the directory", async () => {
      const clock = { now: START };
      const token = identityAt(clock).issueToken("lee");

      expect(await identityAt(clock, { users: [KIM] }).authenticate(withBearer(token))).toBeUndefined();
    });

    it("returns undefined for another Authorization scheme, without falling back to the cookie", async () => {
      const identity = identityAt({ now: START });
      const request = new Request("http://tether.test/", {
        headers: { authorization: "Basic a2ltOg==", cookie: `tether_token=${identity.issueToken("kim")}` },
      });

      expect(await identity.authenticate(request)).toBeUndefined();
    });

    it("does not accept tokens across two starts without a configured secret", async () => {
      const first = createDemoIdentity({ users: [KIM] });
      const second = createDemoIdentity({ users: [KIM] });

      expect(await second.authenticate(withBearer(first.issueToken("kim")))).toBeUndefined();
      expect(await first.authenticate(withBearer(first.issueToken("kim")))).toEqual(KIM);
    });

    // Bug: demo-identity.ts line 67 calls decodeURIComponent on the cookie value without a
    // try/catch. A malformed percent-escape (`tether_token=%E0%A4%A`) makes authenticate throw
    // URIError instead of returning undefined, so any request carrying that cookie gets a 500
    // `internal` instead of a 401 `unauthenticated`.
    it("returns undefined for a cookie value that is not valid percent-encoding", async () => {
      expect(await identityAt({ now: START }).authenticate(withCookie("tether_token=%E0%A4%A"))).toBeUndefined();
    });
  });

  describe("routes", () => {
    function demoApp() {
      const identity = identityAt({ now: START }, { ttlSeconds: 3600 });
      const app = new Hono();
      app.onError(errorHandler(silentLogger));
      app.route("/api/demo", identity.routes);
      return { identity, app };
    }

    const login = (app: Hono, body: string) => app.request("/api/demo/login", { method: "POST", headers: { "content-type": "application/json" }, body });

    it("signs in a listed user with POST /login, returning a working token and setting the cookie", async () => {
      const { identity, app } = demoApp();

      const response = await login(app, JSON.stringify({ user: "kim" }));
      const body = (await response.json()) as { demo: boolean; token: string; user: unknown };

      expect(response.status).toBe(200);
      expect(body.demo).toBe(true);
      expect(body.user).toEqual(KIM);
      expect(await identity.authenticate(withBearer(body.token))).toEqual(KIM);
      const cookie = response.headers.get("set-cookie") ?? "";
      expect(cookie).toContain(`tether_token=${body.token}`);
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Strict");
      expect(cookie).toContain("Max-Age=3600");
    });

    it("answers 404 user_not_found for a user not in the directory", async () => {
      const { app } = demoApp();

      const response = await login(app, JSON.stringify({ user: "mallory" }));

      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: "user_not_found", message: 'There is no demo user "mallory".' } });
    });

    it("answers 400 invalid_json for a body that is not JSON", async () => {
      const { app } = demoApp();

      const response = await login(app, "user=kim");

      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("invalid_json");
    });

    it("answers 400 invalid_input for JSON without a user", async () => {
      const { app } = demoApp();

      const response = await login(app, JSON.stringify({ name: "kim" }));

      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: "invalid_input", message: 'The body (like {"user":"kim"}) is not valid: user: Invalid input: expected string, received undefined.' },
      });
    });

    it("lists the demo users with GET /users", async () => {
      const { app } = demoApp();

      const response = await app.request("/api/demo/users");

      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        demo: true,
        users: [
          { id: "kim", displayName: "Kim", roles: ["clerk"], orgScope: "org-north" },
          { id: "lee", displayName: "Lee", roles: ["clerk", "manager"], orgScope: "org-north" },
        ],
      });
    });
  });
});
