/** What replaces a secret in a run record. */
export const REDACTED = "[redacted]";

/**
 * Keys whose values are secrets wherever they appear: credentials and
 * headers that carry them. `token` but not `tokens`: token counts are usage;
 * `auth` whole, not `author` or `authority`.
 */
const SECRET_KEY =
  /authorization|cookie|passw(or)?d|secret|api[-_]?key|credential|private[-_]?key|token(?!s)|bearer|jwt|^(x-)?auth$|session[-_]?(id|key)$|^sid$/i;

/** Secrets recognisable by their look, inside any string: the whole match is the secret. */
const SECRET_VALUES: RegExp[] = [
  /\bBearer\s+[^\s"',;]+/gi,
  /\bBasic\s+[A-Za-z0-9+/=]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{12,}/g, // OpenAI and Anthropic (sk-ant-…) keys
  /\bAIza[0-9A-Za-z_-]{20,}/g, // Google API keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, // JWTs (session and access tokens)
];
/**
 * Secrets known by what names them: group 1 is the name, group 2 the secret.
 * A header written out in a string (`Cookie: a=b`) up to the end of its line;
 * `name=value` (a URL's query, a form, a cookie string, an environment
 * variable) and `name: value` with a secret's name; a URL's password
 * (`postgres://user:password@host`); a secret-named member of JSON carried
 * as a string (tool arguments, a tool's result).
 */
const SECRET_HEADER_LINE = /\b(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)\s*:\s*([^\r\n]*)/dgi;
const SECRET_ASSIGNMENT = /(?<![\w.-])([\w.-]{1,64})=([^&#\s"'<>;,]+)/dg;
const SECRET_COLON_PAIR = /(?<![\w.-])([\w.-]{1,64})\s*:\s*([^\s"',;)]+)/dg;
const SECRET_URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):([^\s/@]+)@/dgi;
const SECRET_JSON_MEMBER = /"([^"\\]{0,64})"\s*:\s*"((?:[^"\\]|\\.)*)"/dg;
/** Names of `name=value` secrets besides the secret keys: Google's `key`, signed URLs' `sig`, session cookies. */
const SECRET_ASSIGNMENT_NAME = /^(key|sig|signature|sid)$|sess(ion)?(id)?$/i;
/** Header names in a list of `{ name, value }` (a HAR entry, a header list), whose value is the secret. */
const SECRET_HEADER_NAME = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)$/i;

/**
 * A copy of `value` with every secret replaced by `"[redacted]"`: values under
 * secret-named keys (other than numbers and booleans) or of secret headers
 * listed as `{ name, value }`, and the secrets above inside any string.
 * `onString` then sees each string (to cap it).
 */
export function redact(value: unknown, onString: (text: string) => unknown = (text) => text): unknown {
  if (typeof value === "string") return onString(redactString(value));
  if (Array.isArray(value)) return value.map((item) => redact(item, onString));
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEY.test(key) && item !== null && typeof item !== "number" && typeof item !== "boolean" ? REDACTED : redact(item, onString);
  }
  const { name, value: header } = value as { name?: unknown; value?: unknown };
  if (typeof name === "string" && SECRET_HEADER_NAME.test(name) && typeof header === "string") copy.value = REDACTED;
  return copy;
}

/** A string with the secrets in it replaced. */
export function redactString(text: string): string {
  return redactPieces([text], secretSpans(text))[0]!;
}

/** Where a text holds secrets: `[start, end)` ranges, sorted, none overlapping. */
export type SecretSpan = [start: number, end: number];

export function secretSpans(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const pattern of SECRET_VALUES) for (const match of text.matchAll(pattern)) spans.push([match.index, match.index + match[0].length]);
  const named = (pattern: RegExp, isSecret: (name: string, secret: string) => boolean) => {
    for (const match of text.matchAll(pattern)) {
      const secret = match.indices![2]!;
      if (secret[1] > secret[0] && isSecret(match[1]!, match[2]!)) spans.push([secret[0], secret[1]]);
    }
  };
  named(SECRET_HEADER_LINE, () => true);
  named(SECRET_URL_PASSWORD, () => true);
  if (text.includes("=")) named(SECRET_ASSIGNMENT, (name) => SECRET_KEY.test(name) || SECRET_ASSIGNMENT_NAME.test(name));
  // A number named like a secret is a count (`token: 42`), as under a key.
  if (text.includes(":")) named(SECRET_COLON_PAIR, (name, secret) => SECRET_KEY.test(name) && !/^\d+$/.test(secret));
  if (text.includes('"')) named(SECRET_JSON_MEMBER, (name) => SECRET_KEY.test(name));
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
