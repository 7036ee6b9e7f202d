import {
  BACKSLASH,
  CR,
  LF,
  blanksAfter,
  escapeLevel,
  isBlank,
  isNameChar,
  isQuote,
  lineBreakAt,
  lineBreakLevel,
  skipBackslashes,
  type SecretSpan,
} from "./text-scan.ts";

/**
 * Where a bare value after a secret's `name:` ends, read as YAML reads it: the
 * rest of its line (`password: correct horse battery`), but not a next pair on
 * it (`token: x, user: kim`, `password: x (maxTokens: 3)`: a plain YAML value
 * never holds `: `), a quote or an escaped quote or line break (the string
 * holding it ends), or a closing bracket. A header's value (`Cookie: a=b; c=d`)
 * takes the whole line. Blanks at the end are not the value's.
 */
export function lineValueEnd(text: string, from: number, header: boolean): number {
  let end = from;
  let valueEnd = from;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code === BACKSLASH) {
      const after = skipBackslashes(text, end);
      if (after >= text.length || /["'`nr]/.test(text[after]!)) break;
      end = after;
      continue;
    }
    if (code === LF || code === CR || isQuote(text[end])) break;
    if (!header && (code === 41 || code === 93 || code === 125 || code === 60)) break; // ) ] } <
    if (!header && (isBlank(code) || code === 44 || code === 59) && pairFollows(text, end + 1)) break; // , ;
    end++;
    if (!isBlank(code)) valueEnd = end;
  }
  return valueEnd;
}

/** Whether a `name:` or `name=` starts at `from`, after blanks and an opening bracket: the next pair on a line. */
function pairFollows(text: string, from: number): boolean {
  let at = blanksAfter(text, from);
  if (text[at] === "(" || text[at] === "[" || text[at] === "{") at++;
  const quote = skipBackslashes(text, at);
  if (isQuote(text[quote])) at = quote + 1;
  const start = at;
  while (at < text.length && at - start < MAX_NAME && isNameChar(text.charCodeAt(at))) at++;
  if (at === start) return false;
  const closing = skipBackslashes(text, at);
  if (isQuote(text[closing])) at = closing + 1;
  at = blanksAfter(text, at);
  return text[at] === "=" || (text[at] === ":" && text[at + 1] !== "/");
}

const MAX_NAME = 64;

/**
 * A YAML value under `name:` on the lines after it: nothing (or a block
 * indicator, `|`, `>-`, `|+2`) after the `:` at `at`, then every line indented
 * deeper than the name (`password:\n  x`, `private_key: >-\n  a\n  b`), blank
 * lines among them, in a string at any depth too (`password:\n  x` as JSON
 * writes it), where the string's closing quote ends it. Adds one span over the
 * lines; returns where it ends, or -1 when the value is on the name's line.
 */
export function blockValue(text: string, at: number, from: number, spans: SecretSpan[]): number {
  let lineEnd = from;
  if (text[lineEnd] === "|" || text[lineEnd] === ">") {
    lineEnd++;
    while (/[-+0-9]/.test(text[lineEnd] ?? "")) lineEnd++;
    lineEnd = blanksAfter(text, lineEnd);
  }
  let step = lineBreakAt(text, lineEnd);
  if (step === 0) return lineEnd >= text.length && lineEnd > from ? lineEnd : -1;
  const level = text.charCodeAt(lineEnd) === BACKSLASH ? lineBreakLevel(step - 1) : 0;
  const column = nameColumn(text, at);
  let start = -1;
  let end = lineEnd;
  for (let line = lineEnd; step > 0;) {
    const indentEnd = blanksAfter(text, line + step);
    if (lineBreakAt(text, indentEnd) > 0) {
      line = indentEnd;
      step = lineBreakAt(text, line);
      continue;
    }
    if (indentEnd >= text.length || indentEnd - (line + step) <= column || closesString(text, indentEnd, level)) break;
    if (start < 0) start = indentEnd;
    line = contentEnd(text, indentEnd, level);
    end = line;
    while (end > indentEnd && isBlank(text.charCodeAt(end - 1))) end--;
    step = lineBreakAt(text, line);
  }
  if (start >= 0) spans.push([start, end]);
  return Math.max(end, lineEnd);
}

/** How far in the name before the `:` at `at` sits on its line (after indentation and `- `): the block's lines sit deeper. */
function nameColumn(text: string, at: number): number {
  let lineStart = at;
  while (lineStart > 0) {
    const code = text.charCodeAt(lineStart - 1);
    if (code === LF || code === CR) break;
    if ((code === 110 || code === 114) && text.charCodeAt(lineStart - 2) === BACKSLASH) break; // n r
    lineStart--;
  }
  let column = lineStart;
  for (;;) {
    if (column < at && isBlank(text.charCodeAt(column))) column++;
    else if (text[column] === "-" && isBlank(text.charCodeAt(column + 1))) column += 2;
    else break;
  }
  return column - lineStart;
}

/** Where the line from `from` ends: a line break, or the closing quote of the string (at `level`) that holds it. */
function contentEnd(text: string, from: number, level: number): number {
  let end = from;
  while (end < text.length && lineBreakAt(text, end) === 0 && !closesString(text, end, level)) {
    end = text.charCodeAt(end) === BACKSLASH ? skipBackslashes(text, end) + 1 : end + 1;
  }
  return end;
}

/**
 * Whether a quote at `at` (after its backslashes) closes the string at `level`
 * that the lines are in: a `"` escaped less, as JSON writes a string (a `'` or
 * a backtick is text there; in a string quoted otherwise the block runs on, the
 * safe way to be wrong).
 */
function closesString(text: string, at: number, level: number): boolean {
  if (level === 0) return false;
  const quote = skipBackslashes(text, at);
  return text[quote] === '"' && escapeLevel(quote - at) < level;
}
