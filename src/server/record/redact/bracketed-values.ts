import { BACKSLASH, CR, LF, blanksAfter, escapeLevel, isBlank, isQuote, quotedEnd, skipBackslashes, type SecretSpan } from "./text-scan.ts";

/**
 * The values inside `{…}` or `[…]` under a secret's name, in a string
 * (`{"secrets": ["x"]}`, `{"password": {"value": "x"}}`, YAML's
 * `password: [a, b]`): every string and bare word that is not a member's name
 * is a span, so JSON stays JSON; numbers, `true`, `false` and `null` stay.
 * Quoted strings are stepped over whole (a bracket inside one is text), at the
 * escape level of the first quote met; a quote escaped less closes the string
 * holding the brackets and ends them too. Returns where they end (after the
 * bracket that closes the first, else the end of the text).
 */
export function bracketedValue(text: string, from: number, spans: SecretSpan[]): number {
  let depth = 0;
  let level = -1;
  let at = from;
  while (at < text.length) {
    const char = text[at]!;
    const code = text.charCodeAt(at);
    if (char === "{" || char === "[") {
      depth++;
      at++;
    } else if (char === "}" || char === "]") {
      at++;
      if (--depth === 0) return at;
    } else if (code === BACKSLASH || isQuote(char)) {
      const quote = skipBackslashes(text, at);
      if (!isQuote(text[quote])) {
        at = quote + 1; // an escape sequence: `\n`, `\t`
        continue;
      }
      const quoteLevel = escapeLevel(quote - at);
      if (level < 0) level = quoteLevel;
      if (quoteLevel < level) return at;
      if (quoteLevel > level) {
        at = quote + 1;
        continue;
      }
      const [end, after] = quotedEnd(text, quote, level);
      if (end > quote + 1 && !isMemberName(text, after)) spans.push([quote + 1, end]);
      at = after;
    } else if (isBlank(code) || code === LF || code === CR || char === "," || char === ":") {
      at++;
    } else {
      const end = bareWordEnd(text, at);
      if (!isMemberName(text, end) && !LITERAL.test(text.slice(at, end))) spans.push([at, end]);
      at = end;
    }
  }
  return at;
}

const LITERAL = /^(-?\d+(\.\d+)?([eE][+-]?\d+)?|true|false|null|None|True|False)$/;

function isMemberName(text: string, after: number): boolean {
  return text[blanksAfter(text, after)] === ":";
}

/** A bare word in brackets ends at a blank, a line break, a separator, a bracket, a quote or a backslash. */
function bareWordEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !/[\s,:[\]{}"'`\\]/.test(text[end]!)) end++;
  return Math.max(end, from + 1);
}
