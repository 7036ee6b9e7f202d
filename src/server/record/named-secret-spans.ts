import { isSecretAssignmentName, isSecretHeader, isSecretName } from "./secret-name.ts";

/** Where a text holds a secret: `[start, end)`. */
export type SecretSpan = [start: number, end: number];

/**
 * The secrets a text names: the value of every `name=value` and `name: value`
 * whose name is a secret's (see secret-name.ts), in every form they are
 * written in: spaces around the separator (`password = x`, `token : "x"`),
 * `=>` and `:=`; a name bare or quoted (`{'password': 'x'}`, `"api_key":`);
 * a value quoted with `"`, `'` or a backtick, escaped at any depth (JSON in a
 * string, `{\"password\":\"x\"}`, and in a string again, `\\\"x\\\"`), or
 * bare up to its natural end (a space, `,`, `;`, `&`, a closing bracket, a
 * quote or an escaped line break); a secret header's bare value to the end of
 * its line (`Cookie: a=b; c=d`). After `:` a number, `true`, `false` or
 * `null` is a count or a flag, not a secret (`tokens: 42`), and `{` or `[`
 * opens members that are read one by one.
 *
 * One pass over the text, looking back from each `=` and `:` at most over the
 * name before it and forward only over a secret's value, each character at
 * most a few times whatever the text: no regular expression that can
 * backtrack, so a record read stays linear in what it reads.
 */
export function namedSecretSpans(text: string, spans: SecretSpan[]): void {
  const separators = /[=:]/g;
  for (let match = separators.exec(text); match; match = separators.exec(text)) {
    separators.lastIndex = Math.max(separators.lastIndex, pairAt(text, match.index, spans));
  }
}

/** Reads the pair whose separator is at `at`; returns where the search goes on (after a secret's value, else after the separator). */
function pairAt(text: string, at: number, spans: SecretSpan[]): number {
  const name = nameBefore(text, at);
  if (!name) return at + 1;
  const assignment = text[at] === "=";
  if (!(assignment ? isSecretAssignmentName(name) : isSecretName(name))) return at + 1;
  let from = at + 1;
  // `name => value`, `name == value`, `name := value`.
  if (text[from] === (assignment ? ">" : "=") || (assignment && text[from] === "=")) from++;
  from = blanksAfter(text, from);
  return valueAt(text, from, { assignment, header: !assignment && isSecretHeader(name) }, spans);
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

/** Reads a secret's value from `from`; adds its span; returns where it ends. */
function valueAt(text: string, from: number, kind: { assignment: boolean; header: boolean }, spans: SecretSpan[]): number {
  // A Python string's prefix (`b'…'`, `r"…"`) belongs to the quoting, not the value.
  let quoteAt = from;
  while (quoteAt < from + 2 && /[bBrRuUfF]/.test(text[quoteAt] ?? "")) quoteAt++;
  if (!isQuote(text[skipBackslashes(text, quoteAt)] ?? "")) quoteAt = from;
  const quote = skipBackslashes(text, quoteAt);
  if (quote < text.length && isQuote(text[quote]!)) return quotedValue(text, quote, escapeLevel(quote - quoteAt), spans);
  if (!kind.assignment && (text[from] === "{" || text[from] === "[")) return from;
  const end = kind.header ? lineEnd(text, from) : bareEnd(text, from);
  if (end === from || (!kind.assignment && /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null|None|True|False|undefined)$/.test(text.slice(from, end))))
    return end;
  spans.push([from, end]);
  return end;
}

/**
 * A value between quotes, the quote at `quoteAt` escaped `level` times: it
 * ends at the first same quote escaped no more than that (a quote inside it is
 * escaped once more). The span is what is between the quotes, so what holds
 * it (JSON, a string in JSON) stays as it was written. Unclosed (a stream cut
 * short), it runs to the end of the line.
 */
function quotedValue(text: string, quoteAt: number, level: number, spans: SecretSpan[]): number {
  const quote = text[quoteAt]!;
  const from = quoteAt + 1;
  for (let search = from; ;) {
    const close = text.indexOf(quote, search);
    if (close < 0) {
      const end = realLineEnd(text, from);
      if (end > from) spans.push([from, end]);
      return end;
    }
    let run = 0;
    while (close - run > from && text[close - run - 1] === "\\") run++;
    const closeLevel = escapeLevel(run);
    if (closeLevel <= level) {
      const end = close - (2 ** closeLevel - 1);
      if (end > from) spans.push([from, end]);
      return close + 1;
    }
    search = close + 1;
  }
}

/**
 * How many times a quote preceded by `backslashes` backslashes is escaped:
 * each level of escaping doubles the backslashes before it and adds one
 * (`"` 0, `\"` 1, `\\\"` 2, `\\\\\\\"` 3), and an even run is escaped
 * backslashes before a quote that is not (`\\"` is 0).
 */
function escapeLevel(backslashes: number): number {
  let level = 0;
  for (let run = backslashes; run % 2 === 1; run = (run - 1) / 2) level++;
  return level;
}

/** A bare value's natural end: a space or line break, `,` `;` `&`, a closing bracket, a quote, an escape sequence (`\n`, `\"`). */
function bareEnd(text: string, from: number): number {
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

/** A header's value ends with its line: a line break (real or escaped), or the quote that closes the string holding it. */
function lineEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code === LF || code === CR || isQuote(text[end]!)) return end;
    if (code === BACKSLASH) {
      const after = skipBackslashes(text, end);
      if (after >= text.length || /["'`nr]/.test(text[after]!)) return end;
      end = after;
      continue;
    }
    end++;
  }
  return end;
}

/** Where the spaces and tabs before `at` start, a tab escaped in a string at any depth (`\t`, `\\t`) counted as one. */
function blanksBefore(text: string, at: number): number {
  let end = at;
  for (;;) {
    if (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
    else if (text[end - 1] === "t" && text.charCodeAt(end - 2) === BACKSLASH) {
      let run = 1;
      while (text.charCodeAt(end - 2 - run) === BACKSLASH) run++;
      end -= run + 1;
    } else return end;
  }
}

/** Where the spaces and tabs from `from` end, escaped tabs counted. */
function blanksAfter(text: string, from: number): number {
  let at = from;
  for (;;) {
    if (isBlank(text.charCodeAt(at))) at++;
    else if (text.charCodeAt(at) === BACKSLASH) {
      const after = skipBackslashes(text, at);
      if (text[after] !== "t") return at;
      at = after + 1;
    } else return at;
  }
}

function realLineEnd(text: string, from: number): number {
  for (let end = from; end < text.length; end++) {
    const code = text.charCodeAt(end);
    if (code === LF || code === CR) return end;
  }
  return text.length;
}

function skipBackslashes(text: string, from: number): number {
  let at = from;
  while (text.charCodeAt(at) === BACKSLASH) at++;
  return at;
}

const BACKSLASH = 92;
const LF = 10;
const CR = 13;
/** What follows a backslash in an escape sequence, where a bare value stops. */
const ESCAPED = new Set(['"', "'", "`", "n", "r", "t", "b", "f", "u", "/"]);
const BARE_ENDS = new Set([",", ";", "&", "<", ">", ")", "]", "}", '"', "'", "`"]);

function isQuote(char: string): boolean {
  return char === '"' || char === "'" || char === "`";
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** Letters, digits, `_`, `-`, `.`: what names are made of (`DB_PASSWORD`, `x-api-key`, `spring.datasource.password`). */
function isNameChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 45 || code === 46;
}
