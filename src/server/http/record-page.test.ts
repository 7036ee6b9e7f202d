import { describe, expect, it } from "vitest";
import { readRecordQuery } from "./record-page.ts";

describe("readRecordQuery", () => {
  const query = (values: Record<string, string | undefined>) => (name: string) => values[name];
  const limits = { maxItems: 1000, maxBytes: 1024 * 1024 };

  it("starts at the beginning with the largest page by default", () => {
    expect(readRecordQuery(query({}), limits)).toEqual({ afterSeq: 0, limit: 1000, maxChars: 1024 * 1024 });
  });

  it("reads where to start and lowers a limit over the maximum to it", () => {
    expect(readRecordQuery(query({ afterSeq: "42", limit: "10" }), limits)).toEqual({ afterSeq: 42, limit: 10, maxChars: 1024 * 1024 });
    expect(readRecordQuery(query({ limit: "99999" }), limits).limit).toBe(1000);
  });

  it.each([{ afterSeq: "-1" }, { afterSeq: "1e3" }, { afterSeq: "x" }, { limit: "0" }, { limit: "" }, { afterSeq: "9".repeat(20) }])(
    "refuses %o with invalid_input",
    (values) => {
      expect(() => readRecordQuery(query(values), limits)).toThrow(expect.objectContaining({ code: "invalid_input" }));
    },
  );
});
