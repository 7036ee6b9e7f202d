import { describe, expect, it } from "vitest";
import { formatSurfaceErrors } from "./format-surface-errors.ts";
import type { SurfaceError } from "./surface-error.ts";

describe("formatSurfaceErrors", () => {
  it("writes a fixed first line, then one [code] path: message line per error", () => {
    const errors: SurfaceError[] = [
      { code: "missing_child", path: "components[1].children[0]", message: "'x' is not the id of any component" },
      { code: "binding", path: "components[2].text", message: "'/a' does not resolve in data" },
    ];
    expect(formatSurfaceErrors(errors)).toBe(
      "A2UI validation failed\n[missing_child] components[1].children[0]: 'x' is not the id of any component\n[binding] components[2].text: '/a' does not resolve in data",
    );
  });

  it("lists twenty errors and counts the rest", () => {
    const errors = Array.from({ length: 23 }, (_, index): SurfaceError => ({ code: "schema", path: `components[${index}]`, message: "bad" }));
    const lines = formatSurfaceErrors(errors).split("\n");
    expect(lines).toHaveLength(22);
    expect(lines[20]).toBe("[schema] components[19]: bad");
    expect(lines[21]).toBe("…and 3 more");
  });
});
