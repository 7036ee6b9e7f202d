import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** What a stateless interrupt's id carries, signed: the approval is bound to exactly this call. */
export interface InterruptClaims {
  nonce: string;
  threadId: string;
  toolCallId: string;
  toolName: string;
  /** SHA-256 of the arguments as streamed: a client cannot approve other arguments than those shown. */
  argumentsHash: string;
  userId: string;
  expiresAt: string;
}

const PREFIX = "it1";

export function hashArguments(argumentsText: string): string {
  return createHash("sha256").update(argumentsText).digest("base64url");
}

/**
 * In `client` history mode the server keeps no reference thread, so an
 * interrupt's id is its own proof: `it1.<claims>.<HMAC>`. It survives a
 * restart as long as the secret does.
 */
export function signInterruptId(claims: Omit<InterruptClaims, "nonce">, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ ...claims, nonce: randomBytes(9).toString("base64url") })).toString("base64url");
  return `${PREFIX}.${payload}.${sign(payload, secret)}`;
}

/** The claims of a signed interrupt id, or undefined when it is not one of ours or was altered. */
export function verifyInterruptId(id: string, secret: string): InterruptClaims | undefined {
  const [prefix, payload, signature, ...rest] = id.split(".");
  if (prefix !== PREFIX || !payload || !signature || rest.length > 0) return undefined;
  const expected = Buffer.from(sign(payload, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as InterruptClaims;
  } catch {
    return undefined;
  }
}

export function isSignedInterruptId(id: string): boolean {
  return id.startsWith(`${PREFIX}.`);
}

function sign(payload: string, secret: string): string {
  return createHmac("sha256", secret).update(`interrupt:${payload}`).digest("base64url");
}
