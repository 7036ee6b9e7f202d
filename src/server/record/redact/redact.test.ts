import { describe, expect, it } from "vitest";
import { REDACTED, redact, redactString } from "./redact.ts";

describe("redact", () => {
  it("replaces the values of secret-named keys at any depth, and leaves token counts alone", () => {
    const value = {
      headers: { Authorization: "Bearer abc.def", cookie: "session=1", "Set-Cookie": ["a=b"], "x-api-key": "k-1" },
      nested: [{ api_key: "k-2", apiKey: { value: "k-3" }, password: "hunter2", clientSecret: "s", accessToken: "t", id_token: "t2" }],
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
      progressTokens: 40,
      plain: "open the work request list",
    };

    expect(redact(value)).toEqual({
      headers: { Authorization: REDACTED, cookie: REDACTED, "Set-Cookie": REDACTED, "x-api-key": REDACTED },
      nested: [{ api_key: REDACTED, apiKey: REDACTED, password: REDACTED, clientSecret: REDACTED, accessToken: REDACTED, id_token: REDACTED }],
      usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
      progressTokens: 40,
      plain: "open the work request list",
    });
  });

  it("replaces bearer tokens, provider keys and header lines inside any string", () => {
    const text = [
      "call it with Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig please",
      "key sk-proj-abcdefghijklmnop1234 and sk-ant-api03-ABCDEFGHIJKLMNOP_qrst",
      "google AIzaSyA1234567890abcdefghijklmnopqrstu",
      "Cookie: tether_session=abc; other=1",
    ].join("\n");

    const redacted = redactString(text);

    for (const secret of ["eyJhbGciOiJIUzI1NiJ9", "sk-proj-abcdefghijklmnop1234", "sk-ant-api03", "AIzaSyA1234567890", "tether_session=abc"]) {
      expect(redacted).not.toContain(secret);
    }
    expect(redacted).toContain("please");
    expect(redacted).toContain(`Cookie: ${REDACTED}`);
  });

  it("replaces secret-named members of JSON carried in a string (tool arguments, results)", () => {
    expect(redactString('{"query":"badge reader","token":"abc123","tokens":"7"}')).toBe(`{"query":"badge reader","token":"${REDACTED}","tokens":"7"}`);
  });

  it("copies, never changes, what it is given", () => {
    const value = { password: "hunter2" };
    redact(value);
    expect(value.password).toBe("hunter2");
  });

  it("replaces secret query parameters of URLs, and leaves the rest of the URL", () => {
    const text = "GET https://api.example.com/v1/items?q=badge&api_key=QUERYKEY1&access_token=QUERYTOKEN2 then https://x.blob.example/f?sig=QUERYSIG3&se=2026";

    const redacted = redactString(text);

    for (const secret of ["QUERYKEY1", "QUERYTOKEN2", "QUERYSIG3"]) expect(redacted).not.toContain(secret);
    expect(redacted).toContain("https://api.example.com/v1/items?q=badge&api_key=[redacted]");
    expect(redacted).toContain("&se=2026");
  });

  it("replaces secrets written as name=value or name: value outside URLs, a URL's password, and a JWT", () => {
    const text = [
      "env ANTHROPIC_API_KEY=PAIRKEY1 and form a=1&password=PAIRPASS2",
      "document.cookie was tether_session=PAIRCOOKIE3; theme=dark",
      "token: COLONTOKEN4, password:COLONPASS5 (maxTokens: 300, token: 42)",
      "connect to postgres://tether:URLPASS6@db.internal:5432/app failed",
      "bare eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJraW0ifQ.JWTSIGNATURE7",
    ].join("\n");

    const redacted = redactString(text);

    for (const secret of ["PAIRKEY1", "PAIRPASS2", "PAIRCOOKIE3", "COLONTOKEN4", "COLONPASS5", "URLPASS6", "JWTSIGNATURE7", "eyJzdWIiOiJraW0ifQ"]) {
      expect(redacted).not.toContain(secret);
    }
    for (const kept of ["theme=dark", "maxTokens: 300", "token: 42", "postgres://tether:", "@db.internal:5432/app", "a=1"]) expect(redacted).toContain(kept);
  });

  it("replaces the value of a header written as a name and a value (a HAR entry, a header list)", () => {
    expect(
      redact({
        headers: [
          { name: "Authorization", value: "opaque-1" },
          { name: "Accept", value: "text/html" },
        ],
      }),
    ).toEqual({
      headers: [
        { name: "Authorization", value: REDACTED },
        { name: "Accept", value: "text/html" },
      ],
    });
  });

  it("keeps JSON in a string parseable when a secret-named member holds no string (null, a flag) or an object or a list", () => {
    const text = '{"token": null, "secret": true, "tokenCount": 3, "password": {"hint": "pet", "n": 2}, "secrets": ["s-1", 3], "apiKey": "k-1"}';

    const redacted = redactString(text);

    expect(JSON.parse(redacted)).toEqual({
      token: null,
      secret: true,
      tokenCount: 3,
      password: { hint: REDACTED, n: 2 },
      secrets: [REDACTED, 3],
      apiKey: REDACTED,
    });
  });

  it("replaces the values of keys that name a credential without saying token or key: auth, bearer, jwt, a session id", () => {
    const value = { auth: "a-1", "X-Auth": "a-2", bearer: "b-1", jwt: "j-1", sessionId: "s-1", session_key: "s-2", sid: "s-3" };
    const kept = { author: "Kim", authority: "ORG-01", sessions: 3, cookingSession: { step: 2 }, sidebar: "open" };

    expect(redact({ ...value, ...kept })).toEqual({ ...Object.fromEntries(Object.keys(value).map((key) => [key, REDACTED])), ...kept });
  });

  it("reads a secret's name with any prefix, suffix, case and separator, and its value quoted, escaped or bare", () => {
    const cases: Array<[string, string]> = [
      ['DB_PASSWORD="v1"', 'DB_PASSWORD="[redacted]"'],
      ["API_KEY='v1'", "API_KEY='[redacted]'"],
      ["export FOO_TOKEN=v1 # set", "export FOO_TOKEN=[redacted] # set"],
      ["client_secret : `v1`", "client_secret : `[redacted]`"],
      ["{'password': 'v1', 'user': 'kim'}", "{'password': '[redacted]', 'user': 'kim'}"],
      ['{password: "v1"}', '{password: "[redacted]"}'],
      ["password = v1, then", "password = [redacted], then"],
      ["AccessToken => 'v1'", "AccessToken => '[redacted]'"],
      ["aws_secret_access_key=v1&region=eu", "aws_secret_access_key=[redacted]&region=eu"],
      ["x-api-key: v1 v2\nAccept: */*", "x-api-key: [redacted]\nAccept: */*"],
      ["{'Api Key': 'v1'}", "{'Api Key': '[redacted]'}"],
      ["{'password': b'v1'}", "{'password': b'[redacted]'}"],
      ['{\\"password\\":\\"v1\\"}', '{\\"password\\":\\"[redacted]\\"}'],
      ['{\\\\\\"token\\\\\\": \\\\\\"v1 \\\\\\\\\\\\\\"x\\\\\\"}', '{\\\\\\"token\\\\\\": \\\\\\"[redacted]\\\\\\"}'],
    ];
    for (const [text, redacted] of cases) expect(redactString(text), text).toBe(redacted);
  });

  it("keeps counts, flags and words that only look like secrets", () => {
    const text = "tokens: 42, inputTokens: 3, token: 42, author: kim, authority=ORG-01, sessions: 3, sidebar=open, tokenizer: bpe, secretary: Jo, monkey=1";
    expect(redactString(text)).toBe(text);
  });

  it("replaces the value of a secret named in a `{ name, value }` list (an environment list)", () => {
    expect(
      redact({
        env: [
          { name: "DB_PASSWORD", value: "v1" },
          { name: "LOG_LEVEL", value: "info" },
        ],
      }),
    ).toEqual({
      env: [
        { name: "DB_PASSWORD", value: REDACTED },
        { name: "LOG_LEVEL", value: "info" },
      ],
    });
  });

  // Every record read redacts every string it holds: a string built to make a pattern backtrack must cost no more than any other.
  it("reads strings built to make a search backtrack in linear time", { timeout: 60_000 }, () => {
    const length = 1_000_000;
    const hostile = [
      ...["eyJ-", "a.", '"a":"\\"', 'password="', "password:", '\\"password\\":\\"', `${"a".repeat(60)}:`, "'", "\\"],
      // YAML lines and blocks, brackets under a name, listed pairs and `{ name, value }` members.
      ...[
        "password: a ",
        ", a: ",
        "password:\n",
        "password: >\n",
        "password:\n  x\n",
        "password: [",
        "password: {",
        "[",
        '["password",',
        '{"name":"password",',
      ],
      // Flags, elements, curl's user, SQL, private keys, URLs' passwords.
      ...["--password ", ".-a", "-u a:", "<password>", "PASSWORD '", "-----BEGIN PRIVATE KEY-----", "a://u:", "a://u:p@/"],
    ].map((unit) => unit.repeat(Math.ceil(length / unit.length)));
    for (const text of hostile) expect(redactString(text).length).toBeGreaterThan(0);
  });
});
