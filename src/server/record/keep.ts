import { createHash } from "node:crypto";
import { markCut, type Cut, type Kept } from "../../protocol/index.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { redact } from "./redact/index.ts";

/**
 * A value as a record keeps it: secrets redacted, every string longer than
 * `RECORD_LIMITS.string` cut, and the whole cut when its JSON is longer than
 * `limit`. The hash is of the redacted value, so a record never holds what
 * would let someone confirm a guessed secret.
 */
export function keep<T>(value: T, limit: number): Kept<T> {
  return capWhole(redact(value, cutString) as T, limit);
}

/** The value whole when it fits in `limit` characters (as JSON), else its cut. */
export function capWhole<T>(value: T, limit: number): Kept<T> {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "null");
  return text.length <= limit ? value : cut(text);
}

function cutString(text: string): string | Cut {
  return text.length <= RECORD_LIMITS.string ? text : cut(text);
}

/** A cut, marked as the server's: the record lists where it sits (`cuts`), so input shaped like one is never taken for one. */
function cut(text: string): Cut {
  return markCut({
    cut: true,
    head: text.slice(0, RECORD_LIMITS.head),
    length: text.length,
    sha256: `sha256:${createHash("sha256").update(text).digest("hex")}`,
  });
}
