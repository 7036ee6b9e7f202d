import { createHash, randomBytes } from "node:crypto";
import { readSignedToken, signToken } from "../auth/index.ts";

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
  return signToken(PREFIX, { ...claims, nonce: randomBytes(9).toString("base64url") }, secret);
}

/** The claims of a signed interrupt id, or undefined when it is not one of ours or was altered. */
export function verifyInterruptId(id: string, secret: string): InterruptClaims | undefined {
  return readSignedToken(PREFIX, id, secret) as InterruptClaims | undefined;
}

export function isSignedInterruptId(id: string): boolean {
  return id.startsWith(`${PREFIX}.`);
}
