import { randomFillSync } from "node:crypto";

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
  // Random bytes drawn a few kilobytes at a time: one call to the system per 341 ids, not one each.
  const pool = Buffer.alloc(4092);
  let used = pool.length;
  const token = () => {
    if (used === pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    used += 12;
    return pool.toString("base64url", used - 12, used).replace(/[-_]/g, "x");
  };
  return {
    message: () => `msg_${token()}`,
    toolCall: () => `call_${token()}`,
    interrupt: () => `int_${token()}`,
  };
}
