import { namedSecretSpans, type SecretSpan } from "./named-secret-spans.ts";
import { isSecretHeader, isSecretName } from "./secret-name.ts";
import { shapedSecretSpans } from "./shaped-secret-spans.ts";

/** What replaces a secret in a run record. */
export const REDACTED = "[redacted]";

/**
 * A copy of `value` with every secret replaced by `"[redacted]"`: values under
 * secret-named keys (other than numbers and booleans) or of secret names
 * listed as `{ name, value }` (or `{ key, value }`), and the secrets inside any string (see `secretSpans`).
 * `onString` then sees each string (to cap it).
 */
export function redact(value: unknown, onString: (text: string) => unknown = (text) => text): unknown {
  if (typeof value === "string") return onString(redactString(value));
  if (Array.isArray(value)) return value.map((item) => redact(item, onString));
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSecretName(key) && item !== null && typeof item !== "number" && typeof item !== "boolean" ? REDACTED : redact(item, onString);
  }
  // A name and its value as two members: a header list, a HAR entry, an environment list (`{ name: "DB_PASSWORD", value }`).
  const { name, key, value: named } = value as { name?: unknown; key?: unknown; value?: unknown };
  const label = typeof name === "string" ? name : key;
  if (typeof label === "string" && (isSecretName(label) || isSecretHeader(label)) && typeof named === "string") copy.value = REDACTED;
  return copy;
}

/** A string with the secrets in it replaced. */
export function redactString(text: string): string {
  return redactPieces([text], secretSpans(text))[0]!;
}

export type { SecretSpan };

/**
 * Where a text holds secrets, as `[start, end)` ranges, sorted, none
 * overlapping: secrets known by their look (shaped-secret-spans.ts) and by their
 * name (named-secret-spans.ts). Linear in the text's length.
 */
export function secretSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  shapedSecretSpans(text, spans);
  namedSecretSpans(text, spans);
  return merge(spans);
}

/**
 * Pieces of one text (a stream's deltas, or the text whole) with the spans'
 * characters taken out and `"[redacted]"` where each span starts: joined,
 * they read as the redacted text, and no piece keeps any part of a secret.
 */
export function redactPieces(pieces: string[], spans: SecretSpan[]): string[] {
  if (spans.length === 0) return pieces;
  let offset = 0;
  let next = 0;
  return pieces.map((piece) => {
    let out = "";
    let from = 0;
    const end = offset + piece.length;
    while (next < spans.length && spans[next]![0] < end) {
      const [spanStart, spanEnd] = spans[next]!;
      const localStart = Math.max(spanStart - offset, 0);
      out += piece.slice(from, localStart) + (spanStart >= offset ? REDACTED : "");
      from = Math.min(spanEnd - offset, piece.length);
      if (spanEnd > end) break;
      next++;
    }
    out += piece.slice(from);
    offset = end;
    return out;
  });
}

function merge(spans: SecretSpan[]): SecretSpan[] {
  spans.sort((a, b) => a[0] - b[0]);
  const merged: SecretSpan[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}
