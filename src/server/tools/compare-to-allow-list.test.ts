import { describe, expect, it } from "vitest";
import type { BrowserToolSpec, JsonSchema } from "../../protocol/index.ts";
import { compareToAllowList } from "./compare-to-allow-list.ts";

function spec(): BrowserToolSpec {
  return {
    name: "navigateToScreen",
    description: "Open a screen.",
    kind: "follow-up",
    parameters: { type: "object", properties: { screenId: { type: "string", description: "Which screen." } }, required: ["screenId"] },
  };
}
const copy = (schema: JsonSchema): JsonSchema => JSON.parse(JSON.stringify(schema)) as JsonSchema;

describe("compareToAllowList", () => {
  it("remembers a declaration it has compared: the same JSON gets the same comparison without a second walk", () => {
    const allowed = spec();
    const first = compareToAllowList(allowed, copy(allowed.parameters));
    expect(first).toEqual({ shape: [], annotations: [] });
    expect(compareToAllowList(allowed, copy(allowed.parameters))).toBe(first);
  });

  it("never answers one declaration with another's comparison, in either order", () => {
    const allowed = spec();
    const reworded = { ...copy(allowed.parameters), description: "Open it." };
    const changed = copy(allowed.parameters) as { properties: { screenId: { type: string } } };
    changed.properties.screenId.type = "number";
    for (let round = 0; round < 2; round++) {
      expect(compareToAllowList(allowed, copy(allowed.parameters))).toEqual({ shape: [], annotations: [] });
      expect(compareToAllowList(allowed, changed as JsonSchema).shape).toEqual([
        { path: "properties.screenId.type", kind: "changed", expected: "string", actual: "number" },
      ]);
      expect(compareToAllowList(allowed, reworded)).toMatchObject({ shape: [], annotations: [{ path: "description", annotation: true }] });
    }
  });

  it("keeps each allow-listed tool's memory apart", () => {
    const one = spec();
    const other = { ...spec(), parameters: { type: "object", properties: { screenId: { type: "number" } } } } as BrowserToolSpec;
    expect(compareToAllowList(one, copy(one.parameters)).shape).toEqual([]);
    expect(compareToAllowList(other, copy(one.parameters)).shape.length).toBeGreaterThan(0);
  });

  it("holds a few dozen declarations per tool, the least recently used going first, and no long one; the rest are compared again, and still correctly", () => {
    const allowed = spec();
    const variant = (n: number, padding = "") => ({ ...copy(allowed.parameters), description: `Variant ${n}${padding}` });
    const firsts: Array<ReturnType<typeof compareToAllowList>> = [];
    for (let n = 0; n < 40; n++) {
      firsts.push(compareToAllowList(allowed, variant(n)));
      expect(compareToAllowList(allowed, variant(0))).toBe(firsts[0]); // declared with every run: never pushed out
    }
    expect(compareToAllowList(allowed, variant(39))).toBe(firsts[39]); // recent
    const forgotten = compareToAllowList(allowed, variant(1)); // pushed out by the later ones
    expect(forgotten).not.toBe(firsts[1]);
    expect(forgotten).toEqual(firsts[1]);
    expect(forgotten).toMatchObject({ shape: [], annotations: [{ path: "description", actual: "Variant 1" }] });
    const long = spec();
    const first = compareToAllowList(long, variant(0, "x".repeat(10_000)));
    expect(compareToAllowList(long, variant(0, "x".repeat(10_000)))).not.toBe(first);
    expect(compareToAllowList(long, variant(0, "x".repeat(10_000)))).toEqual(first);
  });

  it("never lets a value that JSON cannot print (-0, a number past the range) answer for another declaration", () => {
    // Declarations come through JSON.parse: "-0" stays -0 and prints as 0; "1e400" becomes Infinity and prints as null.
    const timer = (): BrowserToolSpec => ({
      name: "startTimer",
      description: "Start a timer.",
      kind: "follow-up",
      parameters: { type: "object", properties: { seconds: { type: "number", minimum: 0 }, note: { default: null } } },
    });
    const exact = '{"type":"object","properties":{"seconds":{"type":"number","minimum":0},"note":{"default":null}}}';
    const minusZero = exact.replace('"minimum":0', '"minimum":-0');
    const beyond = exact.replace('"default":null', '"default":1e400');
    const parse = (text: string) => JSON.parse(text) as JsonSchema;
    for (const odd of [minusZero, beyond]) {
      const oddFirst = timer();
      expect(compareToAllowList(oddFirst, parse(odd)).shape).toHaveLength(1);
      expect(compareToAllowList(oddFirst, parse(exact)).shape).toEqual([]);
      const exactFirst = timer();
      expect(compareToAllowList(exactFirst, parse(exact)).shape).toEqual([]);
      expect(compareToAllowList(exactFirst, parse(odd)).shape).toHaveLength(1);
    }
  });

  it("hands out a remembered comparison that no caller can change for the next", () => {
    const allowed = spec();
    const changed = copy(allowed.parameters) as { properties: { screenId: { type: string } } };
    changed.properties.screenId.type = "number";
    const first = compareToAllowList(allowed, changed as JsonSchema);
    expect(() => (first.shape as unknown[]).push({ path: "x", kind: "added", expected: undefined, actual: 1 } as never)).toThrow(TypeError);
    expect(() => ((first.shape[0] as { expected: unknown }).expected = "number")).toThrow(TypeError);
    expect(compareToAllowList(allowed, copy(changed as JsonSchema)).shape).toEqual([
      { path: "properties.screenId.type", kind: "changed", expected: "string", actual: "number" },
    ]);
  });

  it("hands out a comparison it does not remember frozen as well, so changing one fails every time, not only now and then", () => {
    const allowed = spec();
    const odd = copy(allowed.parameters) as { properties: { screenId: Record<string, unknown> } };
    odd.properties.screenId.minLength = -0;
    const comparison = compareToAllowList(allowed, odd as JsonSchema);
    expect(comparison.shape).toHaveLength(1);
    expect(() => (comparison.shape as unknown[]).push({ path: "x", kind: "added", expected: undefined, actual: 1 } as never)).toThrow(TypeError);
    expect(() => ((comparison.shape[0] as { expected: unknown }).expected = 1)).toThrow(TypeError);
  });
});
