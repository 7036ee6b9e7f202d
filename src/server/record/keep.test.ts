import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keep } from "./keep.ts";

const sha = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

describe("keep", () => {
  it("keeps a value whole when its JSON fits the limit", () => {
    expect(keep({ a: [1, 2, "three"] }, 100)).toEqual({ a: [1, 2, "three"] });
  });

  it("cuts a value over the limit to its head, with the length and hash of its JSON", () => {
    const value = { rows: Array.from({ length: 50 }, (_, index) => `row ${index}`) };
    const json = JSON.stringify(value);

    expect(keep(value, 100)).toEqual({ cut: true, head: json, length: json.length, sha256: sha(json) });
    expect(keep("x".repeat(2000), 1500)).toEqual({ cut: true, head: "x".repeat(1024), length: 2000, sha256: sha("x".repeat(2000)) });
  });

  it("cuts any one string over 16 KiB inside a value that is kept", () => {
    const long = "y".repeat(20_000);
    expect(keep({ note: long, short: "ok" }, 64 * 1024)).toEqual({
      note: { cut: true, head: "y".repeat(1024), length: 20_000, sha256: sha(long) },
      short: "ok",
    });
  });

  it("hashes what is left after redaction, never the secret", () => {
    const kept = keep({ password: "hunter2", pad: "p".repeat(200) }, 50);
    expect(kept).toMatchObject({ cut: true, head: expect.not.stringContaining("hunter2") });
    expect((kept as { sha256: string }).sha256).toBe(sha(JSON.stringify({ password: "[redacted]", pad: "p".repeat(200) })));
  });
});
