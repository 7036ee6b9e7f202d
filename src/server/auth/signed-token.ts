import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A token that carries its own claims and proves the server issued them:
 * `<kind>.<claims as base64url JSON>.<HMAC-SHA256>`. The kind is signed too,
 * so a token of one kind (a demo sign-in) never passes for another (an
 * approval).
 */
export function signToken(kind: string, claims: object, secret: string): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${kind}.${payload}.${hmac(kind, payload, secret)}`;
}

/** The claims of a token of this kind that this secret signed, unaltered; undefined for anything else. */
export function readSignedToken(kind: string, token: string, secret: string): unknown {
  const [given, payload, signature, ...rest] = token.split(".");
  if (given !== kind || !payload || !signature || rest.length > 0) return undefined;
  const expected = Buffer.from(hmac(kind, payload, secret));
  const received = Buffer.from(signature);
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
}

function hmac(kind: string, payload: string, secret: string): string {
  return createHmac("sha256", secret).update(`${kind}.${payload}`).digest("base64url");
}
