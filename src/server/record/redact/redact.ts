import { namedSecretSpans, type SecretSpan } from "./named-secret-spans.ts";
import { markedSecretSpans } from "./marked-secret-spans.ts";
import { isSecretHeader, isSecretName } from "./secret-name.ts";
import { shapedSecretSpans } from "./shaped-secret-spans.ts";

/** What replaces a secret in a run record. */
export const REDACTED = "[redacted]";

/**
 * A copy of `value` with every secret replaced by `"[redacted]"`: values under
 * secret-named keys (other than numbers and booleans), of secret names listed
 * as `{ name, value }` or `{ key, value }` in any case, or following one in a
 * pair (`["password", "x"]`, a raw header list), and the secrets inside any
 * string (see `secretSpans`). `onString` then sees each string (to cap it).
 */
export function redact(value: unknown, onString: (text: string) => unknown = (text) => text): unknown {
  if (typeof value === "string") return onString(redactString(value));
  if (Array.isArray(value))
    return redactPairs(
      value,
      value.map((item) => redact(item, onString)),
    );
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  let label: unknown;
  let valueKey: string | undefined;
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSecretName(key) && isRedactable(item) ? REDACTED : redact(item, onString);
    const lower = key.toLowerCase();
    if (lower === "name" || (lower === "key" && typeof label !== "string")) label = item;
    else if (lower === "value") valueKey = key;
  }
  // A name and its value as two members: a header list, a HAR entry, an environment list (`{ Name: "DB_PASSWORD", Value }`).
  if (valueKey !== undefined && typeof label === "string" && isSecret(label) && isRedactable(copy[valueKey])) copy[valueKey] = REDACTED;
  return copy;
}

/**
 * Names and values in turn (`["password", "x"]`, Node's raw headers `["X-Api-Key", "x", …]`): each value after a secret's name.
 * A list of names (`["password", "email"]`) reads the same and loses every other one: a secret may look like a name (`MyPassword1`).
 */
function redactPairs(original: unknown[], copy: unknown[]): unknown[] {
  if (copy.length % 2 !== 0) return copy;
  for (let index = 0; index < copy.length; index += 2) if (typeof original[index] !== "string") return copy;
  for (let index = 0; index < copy.length; index += 2) if (isSecret(original[index] as string) && isRedactable(copy[index + 1])) copy[index + 1] = REDACTED;
  return copy;
}

function isSecret(name: string): boolean {
  return isSecretName(name) || isSecretHeader(name);
}

/** Numbers, flags and nulls are counts and settings, kept even under a secret's name. */
function isRedactable(item: unknown): boolean {
  return item !== null && item !== undefined && typeof item !== "number" && typeof item !== "boolean";
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
  markedSecretSpans(text, spans);
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
