/**
 * The small steps the secret grammar reads a text with, each forward or back
 * over a bounded stretch: blanks, backslashes, quotes escaped at any depth,
 * line breaks real or escaped (`\n` in a JSON string, `\\n` in a string in one).
 *
 * @module
 */

/** Where a text holds a secret: `[start, end)`. */
export type SecretSpan = [start: number, end: number];

export const BACKSLASH = 92;
export const LF = 10;
export const CR = 13;

export function isQuote(char: string | undefined): boolean {
  return char === '"' || char === "'" || char === "`";
}

export function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** Letters, digits, `_`, `-`, `.`: what names are made of (`DB_PASSWORD`, `x-api-key`, `spring.datasource.password`). */
export function isNameChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 45 || code === 46;
}

export function skipBackslashes(text: string, from: number): number {
  let at = from;
  while (text.charCodeAt(at) === BACKSLASH) at++;
  return at;
}

/**
 * How many times a quote preceded by `backslashes` backslashes is escaped:
 * each level of escaping doubles the backslashes before it and adds one
 * (`"` 0, `\"` 1, `\\\"` 2, `\\\\\\\"` 3), and an even run is escaped
 * backslashes before a quote that is not (`\\"` is 0).
 */
export function escapeLevel(backslashes: number): number {
  let level = 0;
  for (let run = backslashes; run % 2 === 1; run = (run - 1) / 2) level++;
  return level;
}

/** Where the spaces and tabs before `at` start, a tab escaped in a string at any depth (`\t`, `\\t`) counted as one. */
export function blanksBefore(text: string, at: number): number {
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
export function blanksAfter(text: string, from: number): number {
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

/** Where the blanks and line breaks (real or escaped) from `from` end. */
export function spaceAfter(text: string, from: number): number {
  let at = blanksAfter(text, from);
  for (let step = lineBreakAt(text, at); step > 0; step = lineBreakAt(text, at)) at = blanksAfter(text, at + step);
  return at;
}

/** Where the blanks and line breaks (real or escaped) before `at` start. */
export function spaceBefore(text: string, at: number): number {
  let start = blanksBefore(text, at);
  for (;;) {
    const code = text.charCodeAt(start - 1);
    if (code === LF || code === CR) start = blanksBefore(text, start - 1);
    else if ((text[start - 1] === "n" || text[start - 1] === "r") && text.charCodeAt(start - 2) === BACKSLASH) {
      start -= 2;
      while (text.charCodeAt(start - 1) === BACKSLASH) start--;
      start = blanksBefore(text, start);
    } else return start;
  }
}

/** The length of the line break at `at`: real (`\n`, `\r\n`) or escaped at any depth (`\n`, `\\n` as written in a string); 0 if none. */
export function lineBreakAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code === LF) return 1;
  if (code === CR) return text.charCodeAt(at + 1) === LF ? 2 : 1;
  if (code !== BACKSLASH) return 0;
  const after = skipBackslashes(text, at);
  return text[after] === "n" || text[after] === "r" ? after + 1 - at : 0;
}

/** How deep the string holding an escaped line break of `backslashes` backslashes is: `\n` 1, `\\n` 2, `\\\\n` 3 (0 for a real one). */
export function lineBreakLevel(backslashes: number): number {
  return backslashes === 0 ? 0 : Math.floor(Math.log2(backslashes)) + 1;
}

export function realLineEnd(text: string, from: number): number {
  for (let end = from; end < text.length; end++) {
    const code = text.charCodeAt(end);
    if (code === LF || code === CR) return end;
  }
  return text.length;
}

/**
 * The end of a string whose quote at `quoteAt` is escaped `level` times: it
 * ends at the first same quote escaped no more than that (a quote inside it is
 * escaped once more). Gives where its content ends and where the text goes on
 * after it; unclosed (a stream cut short), it runs to the end of the line.
 */
export function quotedEnd(text: string, quoteAt: number, level: number): [contentEnd: number, after: number] {
  const quote = text[quoteAt]!;
  const from = quoteAt + 1;
  for (let search = from; ;) {
    const close = text.indexOf(quote, search);
    if (close < 0) {
      const end = realLineEnd(text, from);
      return [end, end];
    }
    let run = 0;
    while (close - run > from && text[close - run - 1] === "\\") run++;
    const closeLevel = escapeLevel(run);
    if (closeLevel <= level) return [close - (2 ** closeLevel - 1), close + 1];
    search = close + 1;
  }
}
