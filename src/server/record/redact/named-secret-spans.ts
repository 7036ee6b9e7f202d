import { bracketedValue } from "./bracketed-values.ts";
import { listedPairAt } from "./listed-pairs.ts";
import { isSecretAssignmentName, isSecretHeader, isSecretName } from "./secret-name.ts";
import {
  BACKSLASH,
  CR,
  LF,
  blanksAfter,
  blanksBefore,
  escapeLevel,
  isBlank,
  isNameChar,
  isQuote,
  quotedEnd,
  skipBackslashes,
  spaceAfter,
  type SecretSpan,
} from "./text-scan.ts";
import { blockValue, lineValueEnd } from "./yaml-values.ts";

export type { SecretSpan };

/**
 * The secrets a text names: the value of every `name=value` and `name: value`
 * whose name is a secret's (see secret-name.ts), in every form they are
 * written in: spaces around the separator (`password = x`, `token : "x"`),
 * `=>` and `:=`; a name bare or quoted (`{'password': 'x'}`, `"api_key":`);
 * a value quoted with `"`, `'` or a backtick, escaped at any depth (JSON in a
 * string, `{\"password\":\"x\"}`, and in a string again, `\\\"x\\\"`).
 * After `=` a bare value ends at its natural end (a space, `,`, `;`, `&`, a
 * closing bracket, a quote or an escaped line break). After `:` it is YAML's:
 * the rest of the line up to the next pair on it (`password: correct horse`),
 * a block or the lines indented under it (`key: |`, `password:\n  x`), and
 * `{…}` or `[…]` hold values read one by one (bracketed-values.ts); a number,
 * `true`, `false` or `null` there is a count or a flag (`tokens: 42`). Also
 * the value a `{ name, value }` member names (`{"Name":"DB_PASSWORD","Value":"x"}`,
 * `- name: DB_PASSWORD\n  value: x`) and pairs in a list (listed-pairs.ts).
 *
 * One pass over the text, looking back from each `=`, `:` and `,` at most
 * over the name before it and forward only over a secret's value, each
 * character at most a few times whatever the text: no regular expression that
 * can backtrack, so a record read stays linear in what it reads.
 */
export function namedSecretSpans(text: string, spans: SecretSpan[]): void {
  const separators = /[=:,]/g;
  for (let match = separators.exec(text); match; match = separators.exec(text)) {
    const next = match[0] === "," ? listedPairAt(text, match.index, spans) : pairAt(text, match.index, spans);
    separators.lastIndex = Math.max(separators.lastIndex, next);
  }
}

/** Reads the pair whose separator is at `at`; returns where the search goes on (after a secret's value, else after the separator). */
function pairAt(text: string, at: number, spans: SecretSpan[]): number {
  const name = nameBefore(text, at);
  if (!name) return at + 1;
  const assignment = text[at] === "=";
  if (!assignment && /^(name|key)$/i.test(name)) return namedMemberAt(text, at, spans);
  if (!(assignment ? isSecretAssignmentName(name) : isSecretName(name))) return at + 1;
  let from = at + 1;
  // `name => value`, `name == value`, `name := value`.
  if (text[from] === (assignment ? ">" : "=") || (assignment && text[from] === "=")) from++;
  from = blanksAfter(text, from);
  // Redacted already (a record's text read again): `[redacted]` is no list.
  if (text.startsWith(REDACTED_MARK, from)) return from + REDACTED_MARK.length;
  return assignment ? assignedValue(text, from, spans) : colonValue(text, at, from, isSecretHeader(name), spans);
}

/**
 * The name that ends just before a separator, spaces before the separator
 * allowed: bare (`DB_PASSWORD`), or quoted (`"api_key"`, `\"password\"`),
 * when it may hold spaces too (`'client secret'`).
 */
function nameBefore(text: string, at: number): string {
  let end = blanksBefore(text, at);
  if (end > 0 && isQuote(text[end - 1]!)) {
    end--;
    while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) end--;
    // Back to the opening quote, a short way at most so the look back stays bounded.
    let start = end;
    while (start > 0 && end - start < MAX_QUOTED_NAME && (isNameChar(text.charCodeAt(start - 1)) || isBlank(text.charCodeAt(start - 1)))) start--;
    if (start > 0 && start < end && isQuote(text[start - 1]!)) return text.slice(start, end);
  }
  let start = end;
  while (start > 0 && isNameChar(text.charCodeAt(start - 1))) start--;
  // After an escaped line break or tab (`\npwd=` in a string), the letter is the escape's, not the name's.
  if (text.charCodeAt(start - 1) === BACKSLASH && /[nrtbf]/.test(text[start] ?? "")) start++;
  return text.slice(start, end);
}

const MAX_QUOTED_NAME = 64;
const REDACTED_MARK = "[redacted]";

/** A value after `=`: quoted, or bare to its natural end. */
function assignedValue(text: string, from: number, spans: SecretSpan[]): number {
  const quoted = quotedValue(text, from, spans);
  return quoted >= 0 ? quoted : pushValue(text, from, bareEnd(text, from), spans, false);
}

/** A value after `:`: quoted, members in brackets, a block or the lines indented under it, or the rest of its line. */
function colonValue(text: string, at: number, from: number, header: boolean, spans: SecretSpan[]): number {
  const quoted = quotedValue(text, from, spans);
  if (quoted >= 0) return quoted;
  if (text[from] === "{" || text[from] === "[") return bracketedValue(text, from, spans);
  const block = blockValue(text, at, from, spans);
  return block >= 0 ? block : pushValue(text, from, lineValueEnd(text, from, header), spans, true);
}

/**
 * `name: "DB_PASSWORD"` (or `key:`, in any case) followed by a `value` member:
 * that value is the secret (`{"Name":"DB_PASSWORD","Value":"x"}`, a YAML
 * environment list's `- name: DB_PASSWORD` then `value: x`).
 */
function namedMemberAt(text: string, at: number, spans: SecretSpan[]): number {
  const from = blanksAfter(text, at + 1);
  const quote = skipBackslashes(text, from);
  let labelEnd: number;
  let after: number;
  if (isQuote(text[quote])) [labelEnd, after] = quotedEnd(text, quote, escapeLevel(quote - from));
  else after = labelEnd = bareEnd(text, from);
  const label = text.slice(isQuote(text[quote]) ? quote + 1 : from, labelEnd);
  if (!isSecretName(label) && !isSecretHeader(label)) return at + 1;
  let member = blanksAfter(text, after);
  if (text[member] === ",") member++;
  member = skipBackslashes(text, spaceAfter(text, member));
  const quotedMember = isQuote(text[member]);
  if (quotedMember) member++;
  if (text.slice(member, member + 5).toLowerCase() !== "value") return after;
  let separator = member + 5;
  if (quotedMember) {
    separator = skipBackslashes(text, separator);
    if (!isQuote(text[separator])) return after;
    separator++;
  }
  separator = blanksAfter(text, separator);
  if (text[separator] !== ":") return after;
  return colonValue(text, separator, blanksAfter(text, separator + 1), false, spans);
}

/** A quoted value from `from` (a Python prefix, `b'…'`, belongs to the quoting): adds its span, returns where it ends; -1 when not quoted. */
function quotedValue(text: string, from: number, spans: SecretSpan[]): number {
  let quoteAt = from;
  while (quoteAt < from + 2 && /[bBrRuUfF]/.test(text[quoteAt] ?? "")) quoteAt++;
  if (!isQuote(text[skipBackslashes(text, quoteAt)] ?? "")) quoteAt = from;
  const quote = skipBackslashes(text, quoteAt);
  if (!isQuote(text[quote])) return -1;
  // The span is what is between the quotes, so what holds it (JSON, a string in JSON) stays as it was written.
  const [end, after] = quotedEnd(text, quote, escapeLevel(quote - quoteAt));
  if (end > quote + 1) spans.push([quote + 1, end]);
  return after;
}

/** Adds a bare value's span, unless after `:` it is a number, a flag or null; returns its end. */
function pushValue(text: string, from: number, end: number, spans: SecretSpan[], keepLiterals: boolean): number {
  if (end > from && !(keepLiterals && NOT_A_SECRET.test(text.slice(from, end)))) spans.push([from, end]);
  return end;
}

/** A bare value's natural end: a space or line break, `,` `;` `&`, a closing bracket, a quote, an escape sequence (`\n`, `\"`). */
export function bareEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code === BACKSLASH) {
      const after = skipBackslashes(text, end);
      if (after >= text.length || ESCAPED.has(text[after]!)) return end;
      end = after;
      continue;
    }
    if (isBlank(code) || code === LF || code === CR || BARE_ENDS.has(text[end]!)) return end;
    end++;
  }
  return end;
}

/** What follows a backslash in an escape sequence, where a bare value stops. */
const ESCAPED = new Set(['"', "'", "`", "n", "r", "t", "b", "f", "u", "/"]);
const BARE_ENDS = new Set([",", ";", "&", "<", ">", ")", "]", "}", '"', "'", "`"]);
const NOT_A_SECRET = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null|None|True|False|undefined)$/;
