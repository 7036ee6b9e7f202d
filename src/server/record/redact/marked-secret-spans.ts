import { bareEnd, type SecretSpan } from "./named-secret-spans.ts";
import { isSecretName } from "./secret-name.ts";
import { blanksAfter, escapeLevel, isQuote, quotedEnd, realLineEnd, skipBackslashes } from "./text-scan.ts";

/**
 * Secrets marked by the syntax around them rather than by `=` or `:`: a
 * command line's flag (`--password x`, `-token "x"`), an XML element
 * (`<password>x</password>`), curl's user (`curl -u admin:x`, `--user`) and
 * SQL's (`PASSWORD 'x'`, `IDENTIFIED BY 'x'`). Each pattern starts only at its
 * fixed mark and reads on with code, so a search stays a pass over the text.
 */
export function markedSecretSpans(text: string, spans: SecretSpan[]): void {
  if (text.includes("-")) {
    for (const match of text.matchAll(FLAG)) if (isSecretName(match[1]!)) flagValue(text, match.index + match[0].length, spans);
    for (const match of text.matchAll(CURL_USER)) userPassword(text, match.index + match[0].length, spans);
  }
  if (text.includes("<")) for (const match of text.matchAll(XML_OPENING)) elementText(text, match, spans);
  for (const match of text.matchAll(SQL_PASSWORD)) quotedSpan(text, match.index + match[0].length, spans);
}

/** A flag starting where a word or an escaped line does, then blanks: `--password `, `-api-key `. Its value after `=` is a `name=value`. */
const FLAG = /(?:(?<![\w.-])|(?<=\\[nrt]))--?([A-Za-z][\w.-]*)(?=[ \t]|\\+t)/g;
/** curl's `-u user:password`, `--user=user:password`. */
const CURL_USER = /(?:(?<![\w.-])|(?<=\\[nrt]))(?:-u|--user)(?:[ \t]+|=)/g;
/** An element's opening tag, attributes allowed: `<password>`, `<ns:ApiKey type="x">`. */
const XML_OPENING = /<([A-Za-z_][\w.:-]*)(?:[ \t\r\n][^<>]*)?>/g;
/** SQL's `PASSWORD 'x'`, `IDENTIFIED BY 'x'`, `IDENTIFIED WITH plugin BY 'x'`. */
const SQL_PASSWORD = /\b(?:PASSWORD|IDENTIFIED[ \t]+(?:WITH[ \t]+\w+[ \t]+)?BY)[ \t]+(?=\\*['"])/gi;

/** The value after a secret flag and its blanks: quoted, or bare to its natural end; another flag (`--password --verbose`, `-v`) is none. */
function flagValue(text: string, from: number, spans: SecretSpan[]): void {
  const at = blanksAfter(text, from);
  if ((text[at] === "-" && /[A-Za-z-]/.test(text[at + 1] ?? "")) || quotedSpan(text, at, spans)) return;
  const end = bareEnd(text, at);
  if (end > at && !/^\d+$/.test(text.slice(at, end))) spans.push([at, end]);
}

/** `user:password` after `-u`, the password to its end; `uid:gid` (all digits, as Docker's `-u 1000:1000`) and a URL are none. */
function userPassword(text: string, from: number, spans: SecretSpan[]): void {
  const quote = skipBackslashes(text, from);
  const start = isQuote(text[quote]) ? quote + 1 : from;
  let colon = start;
  while (colon < text.length && colon - start < 128 && !/[\s:"'`\\]/.test(text[colon]!)) colon++;
  if (text[colon] !== ":" || text[colon + 1] === "/") return;
  let end = colon + 1;
  while (end < text.length && !/[\s"'`\\]/.test(text[end]!)) end++;
  if (end > colon + 1 && !/^\d+:\d+$/.test(text.slice(start, end))) spans.push([colon + 1, end]);
}

/** An element named as a secret: its text up to its closing tag, or to the end of a text cut short (a stream) with no tag after. */
function elementText(text: string, opening: RegExpMatchArray, spans: SecretSpan[]): void {
  if (opening[0].endsWith("/>") || !isSecretName(opening[1]!)) return;
  const from = opening.index! + opening[0].length;
  const close = text.indexOf("<", from);
  if (close < 0) spans.push([from, realLineEnd(text, from)]);
  else if (text.startsWith(`</${opening[1]}`, close) && close > from) spans.push([from, close]);
}

/** The quoted text at `from` (its quote escaped at any depth) as a span; whether there was one. */
function quotedSpan(text: string, from: number, spans: SecretSpan[]): boolean {
  const quote = skipBackslashes(text, from);
  if (!isQuote(text[quote])) return false;
  const [end] = quotedEnd(text, quote, escapeLevel(quote - from));
  if (end > quote + 1) spans.push([quote + 1, end]);
  return true;
}
