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

/** A URL's password (`postgres://user:password@host`): group 1 is what precedes it. The scheme starts where its run starts. */
const URL_PASSWORD = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/[^\s/:@]*):([^\s/@]+)@/dgi;

/** Adds the spans of secrets recognisable by their look. */
export function shapedSecretSpans(text: string, spans: SecretSpan[]): void {
  for (const pattern of SECRET_SHAPES) for (const match of text.matchAll(pattern)) spans.push([match.index, match.index + match[0].length]);
  if (text.includes("://")) for (const match of text.matchAll(URL_PASSWORD)) spans.push(match.indices![2]!);
}
