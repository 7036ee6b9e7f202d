import { describe, expect, it } from "vitest";
import { REDACTED, redact, redactString } from "./redact.ts";

/** The forms the second hostile review found kept: each holds `S3CR3T` (or a word of it), and none may be left. */
const SECRET = "S3CR3T";

function expectRedacted(cases: Array<[text: string, redacted: string]>): void {
  for (const [text, redacted] of cases) {
    expect(redactString(text), text).toBe(redacted);
    expect(redactString(text), text).not.toContain(SECRET);
  }
}

describe("redacting the forms the second review found", () => {
  it("reads YAML: a value with spaces to the end of its line, on the next line, and in a block", () => {
    expectRedacted([
      [`password: correct horse ${SECRET}`, `password: ${REDACTED}`],
      [`password: correct horse ${SECRET}\nuser: kim`, `password: ${REDACTED}\nuser: kim`],
      [`db:\n  password:\n    ${SECRET}\n  user: kim`, `db:\n  password:\n    ${REDACTED}\n  user: kim`],
      [`private_key: >-\n  a${SECRET}\n\n  b${SECRET}\nnext: 1`, `private_key: >-\n  ${REDACTED}\nnext: 1`],
      [`password: |\n  ${SECRET}\n`, `password: |\n  ${REDACTED}\n`],
      [`- password:\n    ${SECRET}\n- user: kim`, `- password:\n    ${REDACTED}\n- user: kim`],
      // YAML in a JSON string, and in a string in that: the string's end ends the block.
      [JSON.stringify({ config: `password:\n  ${SECRET}\nuser: kim` }), JSON.stringify({ config: `password:\n  ${REDACTED}\nuser: kim` })],
      [JSON.stringify(JSON.stringify({ config: `token: |\n  ${SECRET}` })), JSON.stringify(JSON.stringify({ config: `token: |\n  ${REDACTED}` }))],
    ]);
  });

  it("reads what a secret's name holds in JSON in a string: a list, an object, a `{ name, value }` member in any case", () => {
    expectRedacted([
      [`{"secrets": ["${SECRET}", "b${SECRET}"]}`, `{"secrets": ["${REDACTED}", "${REDACTED}"]}`],
      [`{"password": {"value": "${SECRET}"}, "user": "kim"}`, `{"password": {"value": "${REDACTED}"}, "user": "kim"}`],
      [`{\\"password\\": [\\"${SECRET}\\"]}`, `{\\"password\\": [\\"${REDACTED}\\"]}`],
      [`password: [a${SECRET}, b${SECRET}]`, `password: [${REDACTED}, ${REDACTED}]`],
      [
        `{"env":[{"name":"DB_PASSWORD","value":"${SECRET}"},{"name":"LOG","value":"info"}]}`,
        `{"env":[{"name":"DB_PASSWORD","value":"${REDACTED}"},{"name":"LOG","value":"info"}]}`,
      ],
      [`{"Name":"DB_PASSWORD","Value":"${SECRET}"}`, `{"Name":"DB_PASSWORD","Value":"${REDACTED}"}`],
      [`{"Key": "api_key", "Value": "${SECRET}"}`, `{"Key": "api_key", "Value": "${REDACTED}"}`],
      [
        `env:\n  - name: DB_PASSWORD\n    value: ${SECRET}\n  - name: LOG\n    value: info`,
        `env:\n  - name: DB_PASSWORD\n    value: ${REDACTED}\n  - name: LOG\n    value: info`,
      ],
    ]);
  });

  it("reads a secret's name and its value as two items of a list, in a string", () => {
    expectRedacted([
      [`[["password", "${SECRET}"]]`, `[["password", "${REDACTED}"]]`],
      [`[('Authorization', '${SECRET}'), ('Accept', '*/*')]`, `[('Authorization', '${REDACTED}'), ('Accept', '*/*')]`],
      [`["Accept","*/*","X-Api-Key","${SECRET}"]`, `["Accept","*/*","X-Api-Key","${REDACTED}"]`],
      [JSON.stringify(JSON.stringify([["client_secret", SECRET]])), JSON.stringify(JSON.stringify([["client_secret", REDACTED]]))],
    ]);
    // A name that is a member's value holds no secret; a value that looks like a name may be one.
    expect(redactString('{"field": "password", "label": "Password"}')).toBe('{"field": "password", "label": "Password"}');
    expect(redactString(`[["password", "My${SECRET}Password"]]`)).toBe(`[["password", "${REDACTED}"]]`);
  });

  it("replaces a `{ name, value }` member in any case, and the value after a secret's name in a pair or a raw header list", () => {
    expect(
      redact({
        env: [
          { Name: "DB_PASSWORD", Value: SECRET },
          { Key: "api_key", Value: SECRET },
          { name: "password", value: { v: SECRET } },
          { Name: "LOG_LEVEL", Value: "info" },
        ],
        pairs: [["password", SECRET]],
        rawHeaders: ["Accept", "*/*", "X-Api-Key", SECRET],
        looksLikeAName: [["client_secret", `My${SECRET}Token`]],
      }),
    ).toEqual({
      env: [
        { Name: "DB_PASSWORD", Value: REDACTED },
        { Key: "api_key", Value: REDACTED },
        { name: "password", value: REDACTED },
        { Name: "LOG_LEVEL", Value: "info" },
      ],
      pairs: [["password", REDACTED]],
      rawHeaders: ["Accept", "*/*", "X-Api-Key", REDACTED],
      looksLikeAName: [["client_secret", REDACTED]],
    });
  });

  it("knows more names: a short pass, a passphrase, a seed phrase, a qualified key, a signature", () => {
    const names = ["DB_PASS", "SMTP_PASS", "pass", "pw", "pwd", "passphrase", "X-Auth-Key", "hmac_key", "webhook_key", "kms_key", "mnemonic"];
    for (const name of [...names, "seed_phrase", "X-Signature", "Stripe-Signature", "X-Hub-Signature-256"]) {
      expect(redact({ [name]: SECRET }), name).toEqual({ [name]: REDACTED });
      for (const separator of ["=", ": "]) expect(redactString(`${name}${separator}${SECRET}`), name).toBe(`${name}${separator}${REDACTED}`);
    }
  });

  it("keeps keys that key data, not a lock: primary, sort, partition, cache and idempotency keys, a public key", () => {
    const kept = {
      primary_key: "id",
      sort_key: "createdAt",
      partition_key: "tenant",
      cache_key: "user:1",
      idempotency_key: "req-1",
      public_key: "ssh-ed25519 AAAA",
      key: "k",
    };
    expect(redact(kept)).toEqual(kept);
    const text = "primary_key: id, sortKey: createdAt, cache_key=user-1, passed: 3, compass: north";
    expect(redactString(text)).toBe(text);
  });

  it("reads secrets marked by the syntax around them: a flag, an XML element, curl's user, SQL, a private key", () => {
    expectRedacted([
      [`mysql -u root --password ${SECRET} app`, `mysql -u root --password ${REDACTED} app`],
      [`deploy --api-key "${SECRET}" -v`, `deploy --api-key "${REDACTED}" -v`],
      [`keytool -pw '${SECRET}'`, `keytool -pw '${REDACTED}'`],
      [`<config><password>${SECRET}</password><user>kim</user></config>`, `<config><password>${REDACTED}</password><user>kim</user></config>`],
      [`<ns:ApiKey type="prod">${SECRET}</ns:ApiKey>`, `<ns:ApiKey type="prod">${REDACTED}</ns:ApiKey>`],
      [`curl -u admin:${SECRET} https://x.example`, `curl -u admin:${REDACTED} https://x.example`],
      [`curl --user "admin:${SECRET}" https://x.example`, `curl --user "admin:${REDACTED}" https://x.example`],
      [`ALTER USER bob WITH PASSWORD '${SECRET}';`, `ALTER USER bob WITH PASSWORD '${REDACTED}';`],
      [`CREATE USER 'a'@'%' IDENTIFIED BY '${SECRET}'`, `CREATE USER 'a'@'%' IDENTIFIED BY '${REDACTED}'`],
      [
        `key:\n-----BEGIN RSA PRIVATE KEY-----\nMIIE${SECRET}\nAbC${SECRET}\n-----END RSA PRIVATE KEY-----\nthanks`,
        `key:\n-----BEGIN RSA PRIVATE KEY-----${REDACTED}-----END RSA PRIVATE KEY-----\nthanks`,
      ],
      [`-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl${SECRET}`, `-----BEGIN OPENSSH PRIVATE KEY-----${REDACTED}`],
    ]);
    const kept = "npm --loglevel warn --max-tokens 300 --password --verbose; docker run -u 1000:1000 img; use <token> in <b>it</b>; ORDER BY 'x'";
    expect(redactString(kept)).toBe(kept);
  });

  it("takes a URL's password to the last `@` before its host, `@` and `/` in it", () => {
    expectRedacted([
      [`postgres://u:p@ss/w@${SECRET}@db.internal/app`, `postgres://u:${REDACTED}@db.internal/app`],
      [`redis://:ab/${SECRET}@cache:6379`, `redis://:${REDACTED}@cache:6379`],
      [`https://u:${SECRET}@h.example/p?mail=a@b.example`, `https://u:${REDACTED}@h.example/p?mail=a@b.example`],
    ]);
    expect(redactString("http://localhost:4873/@types/node")).toBe("http://localhost:4873/@types/node");
  });

  it("reads text it redacted before as it is", () => {
    for (const text of [`password: ${REDACTED}`, `password=${REDACTED}`, `{"secrets": ["${REDACTED}"]}`]) expect(redactString(text)).toBe(text);
  });
});
