import { APICallError } from "@ai-sdk/provider";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../store/index.ts";
import { keep } from "./keep.ts";
import { recordOutput } from "./record-output.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import { redactString } from "./redact/index.ts";
import { providerMessage, toModelError } from "../run/index.ts";

/**
 * Secrets written every way people and programs write them, generated rather
 * than listed: a secret's name (with prefixes, suffixes, in any case) × a
 * separator with spaces around × the value's quoting × how deep it is escaped
 * (JSON in a string, in a string again) × the text around it × where it sits
 * in a run (tool arguments and results, state, forwarded props, a streamed
 * message, headers). Whatever the form, the record holds no part of the value.
 */

const NAMES = [
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "secret",
  "token",
  "api_key",
  "apikey",
  "access_token",
  "AccessToken",
  "refresh_token",
  "auth_token",
  "client_secret",
  "private_key",
  "secretKey",
  "credentials",
  "session_id",
  "aws_secret_access_key",
  "x-api-key",
  "Authorization",
  "Cookie",
  "bearer",
  "jwt",
  "pass",
  "pw",
  "mnemonic",
];
/** Names a secret by their last word: a suffix would change what they name (`hmac_key_FILE` is a file), so they take none but a number. */
const LAST_WORD_NAMES = ["webhook_key", "hmac_key", "kms_key", "X-Auth-Key", "seed_phrase", "X-Signature", "Stripe-Signature"];
const PREFIXES = ["", "DB_", "db-", "my.", "app_", "X-", "OPENAI_", "--"];
const SUFFIXES = ["", "_1", "_value", "-v2", "_FILE"];
const CASES = [(name: string) => name, (name: string) => name.toUpperCase(), (name: string) => name.toLowerCase()];
const SEPARATORS = ["=", ":", "=>", ":="];
/** YAML's value on the lines under its name: next-line, literal and folded blocks. */
const YAML_SEPARATORS = [":\n  ", ": |\n  ", ": >-\n    "];
/** What a secret sits in besides `name=value`: a command line's flag, an XML element, a private key's armour. */
const WRAPPERS = ["pair", "pair", "pair", "flag", "xml", "pem"] as const;
const SPACES = ["", " ", "  ", "\t"];
const QUOTES = ["", '"', "'", "`"];
const AROUND_BEFORE = ["", "config ", "the tool said ", "{", "[", "(", "\n", "error: ", "export ", "note=1&", "{'a': 1, "];
const AROUND_AFTER = ["", " and more", "\n", ",", ";", ")", "}", " next: 3", "&x=1", ", 'b': 2}"];
const BARE_SYMBOLS = "_-.+/=~!@$%^*#";
const QUOTED_SYMBOLS = `${BARE_SYMBOLS} ,;&<>()[]{}:`;

const hex = (length: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: length, maxLength: length });
const symbols = (alphabet: string) => fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 3 });

/** One generated secret form: the text, and the two halves of the value's core that must never show. */
const secretForm = fc
  .record({
    named: fc.oneof(
      fc.record({ name: fc.constantFrom(...NAMES), suffix: fc.constantFrom(...SUFFIXES) }),
      fc.record({ name: fc.constantFrom(...LAST_WORD_NAMES), suffix: fc.constantFrom("", "_1", "-256", "-v2") }),
    ),
    prefix: fc.constantFrom(...PREFIXES),
    casing: fc.constantFrom(...CASES),
    separator: fc.constantFrom(...SEPARATORS, ...YAML_SEPARATORS),
    wrapper: fc.constantFrom(...WRAPPERS),
    before: fc.constantFrom(...SPACES),
    after: fc.constantFrom(...SPACES),
    quote: fc.constantFrom(...QUOTES),
    quoteName: fc.boolean(),
    core: hex(12),
    bareSymbols: fc.tuple(symbols(BARE_SYMBOLS), symbols(BARE_SYMBOLS), symbols(BARE_SYMBOLS)),
    quotedSymbols: fc.tuple(symbols(QUOTED_SYMBOLS), symbols(QUOTED_SYMBOLS), symbols(QUOTED_SYMBOLS)),
    depth: fc.integer({ min: 0, max: 3 }),
    aroundBefore: fc.constantFrom(...AROUND_BEFORE),
    aroundAfter: fc.constantFrom(...AROUND_AFTER),
  })
  .map((form) => {
    const name = form.casing(`${form.prefix}${form.named.name}${form.named.suffix}`);
    // An XML element's text and a flag's value are written bare or quoted as on a command line, never with `<` in them.
    const quote = form.wrapper === "xml" ? "" : form.quote;
    const [a, b, c] = quote ? form.quotedSymbols : form.bareSymbols;
    // The `k` keeps a bare value from reading as a number (a count is kept after `:`); the quote's own kind never sits inside.
    const value = `${a.replace(/^-+/, "")}k${form.core.slice(0, 6)}${b}${form.core.slice(6)}${c}`.replaceAll(quote || "\u0000", "");
    const quotedName = form.quoteName ? `${quote || '"'}${name}${quote || '"'}` : name;
    // An element or a flag is named by letters first (`<password>`, `--password`).
    const bareName = name.replace(/^[^A-Za-z]+/, "");
    const secret = {
      pair: `${quotedName}${form.before}${form.separator}${form.after}${quote}${value}${quote}`,
      flag: `--${bareName}${form.after || " "}${quote}${value}${quote}`,
      xml: `<${bareName}>${value}</${bareName}>`,
      pem: `-----BEGIN ${form.casing === CASES[0] ? "RSA " : ""}PRIVATE KEY-----\n${value}\n${value}\n-----END PRIVATE KEY-----`,
    }[form.wrapper];
    let text = `${form.aroundBefore}${secret}${form.aroundAfter}`;
    for (let level = 0; level < form.depth; level++) text = JSON.stringify(text).slice(1, -1);
    return { text, name, value, halves: [form.core.slice(0, 6), form.core.slice(6)] };
  });

/** Capitalisations of a member's name: `name`, `Name`, `NAME`. */
const CAPITALISED = [(word: string) => word, (word: string) => word[0]!.toUpperCase() + word.slice(1), (word: string) => word.toUpperCase()];
/** What a secret's name holds or sits beside when it is not `name=value`: a list or an object under it, a `{ name, value }` member, a pair. */
const SHAPES = {
  list: (name: string, value: string) => ({ [name]: [value, 3] }),
  object: (name: string, value: string, member: string) => ({ [name]: { [member]: value }, user: "kim" }),
  nameValue: (name: string, value: string, member: string, capital: (word: string) => string) => ({
    env: [{ [capital("name")]: name, [capital("value")]: value }],
  }),
  keyValue: (name: string, value: string, member: string, capital: (word: string) => string) => [{ [capital("key")]: name, [capital("value")]: value }],
  pair: (name: string, value: string) => [[name, value]],
  rawHeaders: (name: string, value: string) => ["Accept", "*/*", name, value],
};

/** A secret in one of those shapes: JSON (compact or indented) or a Python list of tuples, in text, escaped to a depth. */
const structuredForm = fc
  .record({
    name: fc.constantFrom(...NAMES, ...LAST_WORD_NAMES),
    shape: fc.constantFrom(...(Object.keys(SHAPES) as Array<keyof typeof SHAPES>), "python" as const),
    member: fc.constantFrom("value", "hint", "v"),
    capital: fc.constantFrom(...CAPITALISED),
    indent: fc.constantFrom(undefined, 2),
    core: hex(12),
    quotedSymbols: fc.tuple(symbols(QUOTED_SYMBOLS), symbols(QUOTED_SYMBOLS), symbols(QUOTED_SYMBOLS)),
    depth: fc.integer({ min: 0, max: 3 }),
    aroundBefore: fc.constantFrom(...AROUND_BEFORE),
    aroundAfter: fc.constantFrom(...AROUND_AFTER),
    // A secret may look like a name (`MyPassword1`): a pair is not a list of names for that.
    lookalike: fc.constantFrom("", "Password", "Secret_"),
  })
  .map((form) => {
    const [a, b, c] = form.quotedSymbols;
    const value = `${form.lookalike}${a}k${form.core.slice(0, 6)}${b}${form.core.slice(6)}${c}`.replace(/["'\\]/g, "");
    const parsed = form.shape === "python" ? undefined : SHAPES[form.shape](form.name, value, form.member, form.capital);
    const written = parsed ? JSON.stringify(parsed, null, form.indent) : `[('Accept', '*/*'), ('${form.name}', '${value}')]`;
    let text = `${form.aroundBefore}${written}${form.aroundAfter}`;
    for (let level = 0; level < form.depth; level++) text = JSON.stringify(text).slice(1, -1);
    return { text, parsed, name: form.name, value, halves: [form.core.slice(0, 6), form.core.slice(6)] };
  });

/** Where a run carries a client's or a tool's text, as the record keeps each: the JSON of what the record would hold. */
function recordedEverywhere(text: string, name: string, value: string): string[] {
  const streamed = splitIntoDeltas(text).map((delta, index): StoredEvent => ({
    seq: index + 1,
    event: { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta } as StoredEvent["event"],
  }));
  const page = { afterSeq: 0, limit: 10_000, maxChars: 10 * 1024 * 1024 };
  return [
    // Tool arguments: the model's JSON as one string, and streamed in pieces.
    JSON.stringify(keep(JSON.stringify({ note: text }), RECORD_LIMITS.string)),
    JSON.stringify(recordOutput(toolArgumentDeltas(JSON.stringify({ note: text })), page).events),
    // Tool results: an object, and plain text.
    JSON.stringify(keep({ output: text, rows: [{ detail: text }] }, RECORD_LIMITS.value)),
    JSON.stringify(keep(text, RECORD_LIMITS.value)),
    // State and forwarded props: a field holding the text, and the secret as a field of its own.
    JSON.stringify(keep({ field: text, [name]: value }, RECORD_LIMITS.value)),
    JSON.stringify(keep({ nested: { deep: [text] }, config: { [name]: value } }, RECORD_LIMITS.value)),
    // A message's text, whole in the history and streamed in pieces.
    JSON.stringify(keep([{ id: "m1", role: "user", content: text }], RECORD_LIMITS.messages)),
    JSON.stringify(recordOutput(streamed, page).events),
    // Headers: a map, a `{ name, value }` list, and written out as text.
    JSON.stringify(keep({ headers: { [name]: value }, list: [{ name, value }] }, RECORD_LIMITS.value)),
  ];
}

/** The text in pieces of 1 to 7 characters, as a provider streams it. */
function splitIntoDeltas(text: string): string[] {
  const pieces: string[] = [];
  for (let at = 0, size = 1; at < text.length; at += size, size = (size % 7) + 1) pieces.push(text.slice(at, at + size));
  return pieces;
}

function toolArgumentDeltas(json: string): StoredEvent[] {
  return splitIntoDeltas(json).map((delta, index) => ({ seq: index + 1, event: { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta } as StoredEvent["event"] }));
}

describe("secrets in any form a run can carry", () => {
  it("leaves no part of a secret's value anywhere in the record", () => {
    fc.assert(
      fc.property(secretForm, ({ text, name, value, halves }) => {
        for (const recorded of recordedEverywhere(text, name, value)) {
          for (const half of halves) expect(recorded, `${JSON.stringify(text)} → ${recorded}`).not.toContain(half);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("leaves no part of a secret held in a list or an object under its name, or named in a `{ name, value }` member or a pair", () => {
    fc.assert(
      fc.property(structuredForm, ({ text, parsed, name, value, halves }) => {
        const recorded = [...recordedEverywhere(text, name, value), JSON.stringify(keep({ parsed }, RECORD_LIMITS.value))];
        for (const record of recorded) for (const half of halves) expect(record, `${JSON.stringify(text)} → ${record}`).not.toContain(half);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves no part of a secret's value in a model error, neither the client's message nor the provider's words kept for the record", () => {
    fc.assert(
      fc.property(secretForm, fc.constantFrom(400, 401, 429, 500, undefined), ({ text, halves }, statusCode) => {
        const thrown = [
          new APICallError({ message: `Bad request: ${text}`, url: "https://model.example/v1", requestBodyValues: {}, statusCode, responseBody: text }),
          { type: "error", error: { type: "overloaded_error", message: `overloaded; you sent ${text}` } },
          new Error(`socket closed after ${text}`),
        ];
        for (const error of thrown) {
          const modelError = toModelError(error);
          for (const said of [modelError.message, providerMessage(modelError) ?? ""]) {
            for (const half of halves) expect(said, `${JSON.stringify(text)} → ${said}`).not.toContain(half);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("keeps the values of names that are not secrets: token counts, authors, sessions, a page's theme", () => {
    const kept = fc.record({
      name: fc.constantFrom("tokens", "inputTokens", "maxTokens", "total_tokens", "author", "authority", "sessions", "sidebar", "theme", "monkey", "tokenizer"),
      separator: fc.constantFrom(...SEPARATORS),
      before: fc.constantFrom(...SPACES),
      after: fc.constantFrom(...SPACES),
      quote: fc.constantFrom(...QUOTES),
      value: fc.oneof(
        hex(8).map((core) => `k${core}`),
        fc.integer({ min: 0, max: 100_000 }).map(String),
      ),
    });
    fc.assert(
      fc.property(kept, ({ name, separator, before, after, quote, value }) => {
        const text = `{${quote}${name}${quote}${before}${separator}${after}${quote}${value}${quote}}`;
        expect(redactString(text)).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("finds the secrets in the forms the hostile review reported", () => {
    const forms = [
      'DB_PASSWORD="S1"',
      "API_KEY='S1'",
      'token: "S1"',
      "{'password': 'S1'}",
      "password = S1",
      '{\\"password\\":\\"S1\\"}',
      'SECRET="S1"',
      "{'api_key': 'sk_live_S1'} PASSWORD=\"S1\"",
    ].map((form) => form.replaceAll("S1", "Qv7Lm2Xw9Z"));
    for (const form of forms) expect(redactString(form), form).not.toContain("Qv7Lm2Xw9Z");
    expect(JSON.stringify(keep({ note: 'SECRET="Qv7Lm2Xw9Z"' }, RECORD_LIMITS.value))).toBe('{"note":"SECRET=\\"[redacted]\\""}');
  });
});
