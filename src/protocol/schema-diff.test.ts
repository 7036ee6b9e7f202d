import { describe, expect, it } from "vitest";
import { diffSchemas, formatSchemaDiff } from "./schema-diff.ts";

const navigateSchema = {
  type: "object",
  properties: {
    screenId: { type: "string", description: "The screen to open, like MNU-3120." },
    mode: { type: "string", enum: ["replace", "push", "modal"] },
  },
  required: ["screenId", "mode"],
  additionalProperties: false,
};

describe("diffSchemas", () => {
  it("finds no differences between the same schema written with another key order", () => {
    const reordered = {
      additionalProperties: false,
      required: ["screenId", "mode"],
      properties: {
        mode: { enum: ["replace", "push", "modal"], type: "string" },
        screenId: { description: "The screen to open, like MNU-3120.", type: "string" },
      },
      type: "object",
    };

    expect(diffSchemas(navigateSchema, reordered)).toEqual([]);
  });

  it("compares required as a set, so its order does not matter", () => {
    expect(diffSchemas(navigateSchema, { ...navigateSchema, required: ["mode", "screenId"] })).toEqual([]);
  });

  it("compares enum as a set, so its order does not matter", () => {
    const actual = {
      ...navigateSchema,
      properties: { ...navigateSchema.properties, mode: { type: "string", enum: ["modal", "replace", "push"] } },
    };

    expect(diffSchemas(navigateSchema, actual)).toEqual([]);
  });

  it("reports a required list with another member as changed at its path", () => {
    expect(diffSchemas(navigateSchema, { ...navigateSchema, required: ["screenId"] })).toEqual([
      { path: "required", kind: "changed", expected: ["screenId", "mode"], actual: ["screenId"] },
    ]);
  });

  it("reports an enum with an extra value as changed at its path", () => {
    const actual = {
      ...navigateSchema,
      properties: { ...navigateSchema.properties, mode: { type: "string", enum: ["replace", "push", "modal", "popup"] } },
    };

    expect(diffSchemas(navigateSchema, actual)).toEqual([
      {
        path: "properties.mode.enum",
        kind: "changed",
        expected: ["replace", "push", "modal"],
        actual: ["replace", "push", "modal", "popup"],
      },
    ]);
  });

  it("keeps the order of other arrays significant", () => {
    const expected = { type: ["string", "null"] };

    expect(diffSchemas(expected, { type: ["null", "string"] })).toEqual([
      { path: "type[0]", kind: "changed", expected: "string", actual: "null" },
      { path: "type[1]", kind: "changed", expected: "null", actual: "string" },
    ]);
  });

  it("reports a changed property type with the path to the type keyword", () => {
    const actual = {
      ...navigateSchema,
      properties: { ...navigateSchema.properties, screenId: { type: "number", description: "The screen to open, like MNU-3120." } },
    };

    expect(diffSchemas(navigateSchema, actual)).toEqual([{ path: "properties.screenId.type", kind: "changed", expected: "string", actual: "number" }]);
  });

  it("reports a property the actual schema lacks as missing", () => {
    const actual = { ...navigateSchema, properties: { screenId: navigateSchema.properties.screenId } };

    expect(diffSchemas(navigateSchema, actual)).toEqual([
      { path: "properties.mode", kind: "missing", expected: { type: "string", enum: ["replace", "push", "modal"] } },
    ]);
  });

  it("reports a property only the actual schema has as unexpected", () => {
    const actual = { ...navigateSchema, properties: { ...navigateSchema.properties, orgScope: { type: "string" } } };

    expect(diffSchemas(navigateSchema, actual)).toEqual([{ path: "properties.orgScope", kind: "unexpected", actual: { type: "string" } }]);
  });

  it("reports a missing keyword at the root by its bare name", () => {
    const { additionalProperties: _dropped, ...actual } = navigateSchema;

    expect(diffSchemas(navigateSchema, actual)).toEqual([{ path: "additionalProperties", kind: "missing", expected: false }]);
  });

  it("reports a schema of another shape at the root as (root)", () => {
    expect(diffSchemas(navigateSchema, "object")).toEqual([{ path: "(root)", kind: "changed", expected: navigateSchema, actual: "object" }]);
  });

  it("reports every difference, not only the first", () => {
    const actual = {
      type: "object",
      properties: { screenId: { type: "integer", description: "The screen to open, like MNU-3120." }, extra: { type: "boolean" } },
      required: ["screenId", "mode"],
      additionalProperties: false,
    };

    expect(diffSchemas(navigateSchema, actual).map((difference) => `${difference.kind} ${difference.path}`)).toEqual([
      "changed properties.screenId.type",
      "missing properties.mode",
      "unexpected properties.extra",
    ]);
  });

  // Bug: the `name in actual` / `name in expected` checks (schema-diff.ts lines 29 and 33) look
  // through the prototype chain, so a property named like an Object.prototype member
  // ("constructor", "toString", "valueOf") that only the actual schema has is never reported.
  it("reports an unexpected property even when it is named like an Object.prototype member", () => {
    const actual = { ...navigateSchema, properties: { ...navigateSchema.properties, constructor: { type: "string" } } };

    expect(diffSchemas(navigateSchema, actual)).toEqual([{ path: "properties.constructor", kind: "unexpected", actual: { type: "string" } }]);
  });
});

describe("formatSchemaDiff", () => {
  it("says what was expected and what arrived for a changed type", () => {
    const actual = {
      ...navigateSchema,
      properties: { ...navigateSchema.properties, screenId: { type: "number", description: "The screen to open, like MNU-3120." } },
    };

    expect(formatSchemaDiff(diffSchemas(navigateSchema, actual))).toBe('properties.screenId.type: expected "string", got "number"');
  });

  it("writes one line per difference, naming missing and unexpected properties", () => {
    const actual = { ...navigateSchema, properties: { screenId: navigateSchema.properties.screenId, orgScope: { type: "string" } } };

    expect(formatSchemaDiff(diffSchemas(navigateSchema, actual)).split("\n")).toEqual([
      'properties.mode: missing (expected {"type":"string","enum":["replace","push","modal"]})',
      'properties.orgScope: not in the allow-listed schema (got {"type":"string"})',
    ]);
  });

  it("returns an empty string when there is nothing to report", () => {
    expect(formatSchemaDiff([])).toBe("");
  });
});
