import { isSecretHeader, isSecretName } from "./secret-name.ts";
import {
  BACKSLASH,
  blanksAfter,
  blanksBefore,
  escapeLevel,
  isBlank,
  isNameChar,
  isQuote,
  quotedEnd,
  skipBackslashes,
  spaceAfter,
  spaceBefore,
  type SecretSpan,
} from "./text-scan.ts";

/**
 * A secret's name and its value as two items of a list, in a string: the
 * comma at `at` follows a quoted secret name that opens a pair or follows
 * another item (`[["password", "x"]]`, Python's `[('Authorization', 'x')]`,
 * a raw header list `["Accept", "*", "X-Api-Key", "x"]`), and the quoted item
 * after it is the secret, unless it names a member (`"x": …`). A list of names
 * (`["password", "email"]`) loses every other one: a secret may look like a
 * name (`MyPassword1`). Returns where the search goes on.
 */
export function listedPairAt(text: string, at: number, spans: SecretSpan[]): number {
  const nameEnd = quotedNameEnd(text, at);
  if (nameEnd < 0) return at + 1;
  let nameStart = nameEnd;
  while (nameStart > 0 && nameEnd - nameStart < MAX_NAME && (isNameChar(text.charCodeAt(nameStart - 1)) || isBlank(text.charCodeAt(nameStart - 1))))
    nameStart--;
  if (nameStart === 0 || nameStart === nameEnd || !isQuote(text[nameStart - 1])) return at + 1;
  if (!isSecret(text.slice(nameStart, nameEnd))) return at + 1;
  let opener = nameStart - 1;
  while (opener > 0 && text.charCodeAt(opener - 1) === BACKSLASH) opener--;
  opener = spaceBefore(text, opener);
  if (!"[(,".includes(text[opener - 1] ?? "")) return at + 1;
  const from = spaceAfter(text, at + 1);
  const quote = skipBackslashes(text, from);
  if (!isQuote(text[quote])) return at + 1;
  const [end, after] = quotedEnd(text, quote, escapeLevel(quote - from));
  if (text[blanksAfter(text, after)] === ":") return at + 1;
  if (end > quote + 1) spans.push([quote + 1, end]);
  return after;
}

const MAX_NAME = 64;

/** Where the name inside the quotes just before the comma at `at` ends (before the closing quote and its backslashes); -1 if no quote. */
function quotedNameEnd(text: string, at: number): number {
  let end = blanksBefore(text, at);
  if (end === 0 || !isQuote(text[end - 1])) return -1;
  end--;
  while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) end--;
  return end;
}

function isSecret(name: string): boolean {
  return isSecretName(name) || isSecretHeader(name);
}
