/**
 * Whether a name (an object's key, the left side of `name=value` or
 * `name: value`) names a secret. A name is read as words, split at `_`, `-`,
 * `.`, spaces and case changes (`DB_PASSWORD`, `client-secret`,
 * `x-api-key`, `AccessToken`, `aws_secret_access_key`), so a secret word
 * counts with any prefix or suffix around it, while words that only look alike
 * do not: `tokens` and `inputTokens` are usage, `author` and `authority` are
 * people, `sessions` and `sidebar` are the UI.
 *
 * @module
 */

/** Words that are secrets wherever they sit in a name, also inside one word (`PGPASSWORD`, `dbpasswd`). */
const SECRET_WORD_PARTS = [
  "password",
  "passwd",
  "passphrase",
  "passcode",
  "secret",
  "credential",
  "apikey",
  "privatekey",
  "cookie",
  "authorization",
  "bearer",
  "jwt",
  "mnemonic",
  "seedphrase",
];
/** Words that are secrets as words of their own. */
const SECRET_WORDS = new Set(["pwd", "pw", "pass", "sessionid", "sessionkey", "sessiontoken", "xsrf", "csrf"]);
/** `<word> key` pairs that name a key to something (`api key`, `x-api-key`, `signing_key`, `aws_secret_access_key`). */
const KEY_OWNERS = new Set([
  "api",
  "private",
  "secret",
  "access",
  "signing",
  "encryption",
  "master",
  "client",
  "app",
  "license",
  "service",
  "account",
  "admin",
  "session",
  "storage",
  "subscription",
  "sas",
]);
/**
 * What a `<word> key` names when it is no secret: a row, a map or a cache entry,
 * an event's key, a public key. Any other qualifier makes it one (`hmac_key`,
 * `kms_key`, `X-Auth-Key`): redacting a harmless key costs a record's reader
 * less than keeping a secret costs its owner.
 */
const NOT_SECRET_KEY_OWNERS = new Set([
  ...["primary", "foreign", "sort", "partition", "hash", "range", "row", "composite", "unique", "natural", "surrogate", "index", "shard"],
  ...["cache", "idempotency", "dedup", "dedupe", "lock", "lookup", "map", "group", "routing", "object", "s3", "redis", "cursor", "page"],
  ...["public", "translation", "i18n", "message", "label", "value", "name", "id", "field", "column", "table", "tag", "item", "list"],
  ...["event", "ctrl", "shift", "alt", "meta", "hot", "short", "query", "config", "setting", "react", "child", "parent", "state"],
]);
/** Last words that name a secret after any qualifier: a request's signature (`X-Signature`, `Stripe-Signature`). */
const SECRET_LAST_WORDS = new Set(["auth", "signature"]);
/** Exact header names whose whole line is the secret (`Cookie: a=b; c=d`). */
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"]);
/** Last words of `name=value` pairs that are secrets there (a URL's `key`, `sig`, session cookies): too common a word to count after `:`. */
const ASSIGNMENT_LAST_WORDS = new Set(["key", "sig", "signature", "sid", "sess", "session", "sessid"]);
const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g;

/** Whether `name` names a secret as an object's key or in `name: value`. */
export function isSecretName(name: string): boolean {
  const split = words(name);
  // `sid` (a session id) only as the last word: `sidebar` is one word, not `sid`.
  return secretWords(split) || lastWord(split) === "sid";
}

/** Whether `name` names a secret in `name=value` (a query, a form, a cookie string, an environment line): also `key`, `sig` and session cookies. */
export function isSecretAssignmentName(name: string): boolean {
  const split = words(name);
  if (secretWords(split)) return true;
  // A key that keys data is no more a secret after `=` (`cache_key=user-1`); a bare `key=` is (a URL's API key).
  if (split.at(-1) === "key" && NOT_SECRET_KEY_OWNERS.has(split.at(-2) ?? "")) return false;
  return ASSIGNMENT_LAST_WORDS.has(split.at(-1) ?? "") || /sess(ion)?(id)?$/i.test(name);
}

/** Whether `name` is a header whose value runs to the end of its line. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

function secretWords(split: string[]): boolean {
  for (let index = 0; index < split.length; index++) {
    const word = split[index]!;
    if (SECRET_WORDS.has(word)) return true;
    for (const part of SECRET_WORD_PARTS) if (word.includes(part) && !word.startsWith("secretar")) return true;
    // A token is one word ending in it (`token`, `accesstoken`), never `tokens` or `tokenizer`.
    if (word.endsWith("token")) return true;
    if (word === "key" && index > 0 && KEY_OWNERS.has(split[index - 1]!)) return true;
    if ((word === "id" || word === "key" || word === "secret") && split[index - 1] === "session") return true;
    if (word === "phrase" && (split[index - 1] === "seed" || split[index - 1] === "recovery")) return true;
  }
  const last = lastWord(split);
  // A qualified key as the last word (`hmac_key`, `X-Auth-Key`), unless it keys data (`primary_key`, `cache_key`).
  const qualifier = split[split.lastIndexOf(last) - 1];
  if (last === "key" && qualifier !== undefined && !NOT_SECRET_KEY_OWNERS.has(qualifier)) return true;
  // `auth` as the last word is the credential itself (`auth`, `X-Auth`, `basicAuth`), not `authMethod`.
  return SECRET_LAST_WORDS.has(last);
}

/** The last word that is not a number or a version: `X-Hub-Signature-256` → signature, `webhook_key_v2` → key. */
function lastWord(split: string[]): string {
  for (let index = split.length - 1; index >= 0; index--) {
    const word = split[index]!;
    if (!/^\d+$/.test(word) && !(word === "v" && /^\d+$/.test(split[index + 1] ?? ""))) return word;
  }
  return "";
}

/** The words of a name, lowercase: `x-api-key` → x, api, key; `AccessToken` → access, token; `APIKey` → api, key. */
function words(name: string): string[] {
  return (name.match(WORD) ?? []).map((word) => word.toLowerCase());
}
