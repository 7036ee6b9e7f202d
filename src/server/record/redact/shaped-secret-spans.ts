import type { SecretSpan } from "./named-secret-spans.ts";

/**
 * Secrets recognisable by their look, inside any string: the whole match is
 * the secret. Each pattern starts only where a run of its characters starts
 * (a lookbehind, or a fixed word) and has nothing to backtrack into after a
 * run, so a search costs a pass over the text whatever it holds: a string of
 * `eyJ-eyJ-…` or `a.a.a.…` costs no more than any other.
 */
const SECRET_SHAPES: RegExp[] = [
  /\bBearer\s+[^\s"'`,;\\]+/gi,
  /\bBasic\s+[A-Za-z0-9+/=]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{12,}/g, // OpenAI and Anthropic (sk-ant-…) keys
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{10,}/g, // Stripe secret and restricted keys
  /\bwhsec_[A-Za-z0-9]{16,}/g, // webhook signing secrets
  /\bAIza[0-9A-Za-z_-]{20,}/g, // Google API keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{22,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g, // GitLab tokens
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bhf_[A-Za-z0-9]{30,}/g, // Hugging Face tokens
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  // JWTs (session and access tokens), starting only where a run of their characters starts.
  /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
];

/** Where a URL's password starts (`postgres://user:`): the scheme starts where its run starts. Its end is found by code, at the last `@`. */
const URL_USER = /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:/gi;
/** A private key's armour: the body between it and its `-----END … PRIVATE KEY-----` is the secret. */
const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g;

/** Adds the spans of secrets recognisable by their look. */
export function shapedSecretSpans(text: string, spans: SecretSpan[]): void {
  for (const pattern of SECRET_SHAPES) for (const match of text.matchAll(pattern)) spans.push([match.index, match.index + match[0].length]);
  if (text.includes("://")) urlPasswords(text, spans);
  if (text.includes("-----BEGIN ")) privateKeys(text, spans);
}

/**
 * A URL's password (`postgres://user:password@host`), which may hold `@` and
 * `/` unescaped (`postgres://u:p@ss/w@host`): it runs to the last `@` before
 * the URL ends (a space, a quote, a backslash, `?` or `#`). A URL whose path
 * holds an `@` loses its host too (unless a port is plain), the safe way to be wrong.
 */
function urlPasswords(text: string, spans: SecretSpan[]): void {
  URL_USER.lastIndex = 0;
  for (let match = URL_USER.exec(text); match; match = URL_USER.exec(text)) {
    const from = match.index + match[0].length;
    let end = from;
    let at = -1;
    for (; end < text.length && !URL_ENDS.has(text[end]!) && !/\s/.test(text[end]!); end++) if (text[end] === "@") at = end;
    // `host:8080/@scope/pkg` is a port and a path, not a password.
    const port = /^\d{1,5}\//.exec(text.slice(from, Math.min(from + 6, end)));
    if (at > from && !(port && at > from + port[0].length - 1)) spans.push([from, at]);
    // The rest of this URL holds no other: the search goes on after it.
    URL_USER.lastIndex = Math.max(URL_USER.lastIndex, end);
  }
}

const URL_ENDS = new Set(['"', "'", "`", "\\", "?", "#", "<", ">"]);

/** Each private key's body, to its end marker, or to the end of a text cut short. */
function privateKeys(text: string, spans: SecretSpan[]): void {
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin; begin = PEM_BEGIN.exec(text)) {
    const from = begin.index + begin[0].length;
    PEM_END.lastIndex = from;
    const end = PEM_END.exec(text);
    spans.push([from, end ? end.index : text.length]);
    if (!end) return;
    PEM_BEGIN.lastIndex = end.index + end[0].length;
  }
}
