/** What replaces a secret in a run record. */
export const REDACTED = "[redacted]";

/**
 * Keys whose values are secrets wherever they appear: credentials and
 * headers that carry them. `token` but not `tokens`: token counts are usage.
 */
const SECRET_KEY = /authorization|cookie|passw(or)?d|secret|api[-_]?key|credential|private[-_]?key|token(?!s)/i;

/** Secrets recognisable by their look, inside any string. */
const SECRET_VALUES: RegExp[] = [
  /\bBearer\s+[^\s"',;]+/gi,
  /\bBasic\s+[A-Za-z0-9+/=]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{12,}/g, // OpenAI and Anthropic (sk-ant-…) keys
  /\bAIza[0-9A-Za-z_-]{20,}/g, // Google API keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
];
/** A header written out in a string (`Cookie: a=b`), up to the end of its line. */
const SECRET_HEADER_LINE = /\b(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key)\s*:\s*[^\r\n]*/gi;
/** A secret-named key inside JSON carried as a string (tool arguments, a tool's result). */
const SECRET_JSON_MEMBER = /"([^"\\]{0,64})"(\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/**
 * A copy of `value` with every secret replaced by `"[redacted]"`: values under
 * secret-named keys (other than numbers and booleans), and bearer tokens,
 * provider keys and header lines inside any string. `onString` then sees each
 * string (to cap it).
 */
export function redact(value: unknown, onString: (text: string) => unknown = (text) => text): unknown {
  if (typeof value === "string") return onString(redactString(value));
  if (Array.isArray(value)) return value.map((item) => redact(item, onString));
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEY.test(key) && item !== null && typeof item !== "number" && typeof item !== "boolean" ? REDACTED : redact(item, onString);
  }
  return copy;
}

/** A string with the secrets in it replaced. */
export function redactString(text: string): string {
  let result = text;
  for (const pattern of SECRET_VALUES) result = result.replace(pattern, REDACTED);
  result = result.replace(SECRET_HEADER_LINE, (_line, name: string) => `${name}: ${REDACTED}`);
  if (result.includes('"')) {
    result = result.replace(SECRET_JSON_MEMBER, (member, key: string, colon: string) => (SECRET_KEY.test(key) ? `"${key}"${colon}"${REDACTED}"` : member));
  }
  return result;
}
