import { randomBytes } from "node:crypto";

/** Where a run gets the ids it mints; injected in tests for readable snapshots. */
export interface IdSource {
  message(): string;
  toolCall(): string;
  interrupt(): string;
}

/**
 * Random ids in the shape every provider accepts: Anthropic allows only
 * letters, digits, `_` and `-` in tool call ids, OpenAI at most 40 characters.
 */
export function createRandomIds(): IdSource {
  const token = () => randomBytes(12).toString("base64url").replace(/[-_]/g, "x");
  return {
    message: () => `msg_${token()}`,
    toolCall: () => `call_${token()}`,
    interrupt: () => `int_${token()}`,
  };
}

/** Counting ids, for tests: msg_1, call_1, ... */
export function createCountingIds(prefix = ""): IdSource {
  let messages = 0;
  let calls = 0;
  let interrupts = 0;
  return {
    message: () => `${prefix}msg_${++messages}`,
    toolCall: () => `${prefix}call_${++calls}`,
    interrupt: () => `${prefix}int_${++interrupts}`,
  };
}
