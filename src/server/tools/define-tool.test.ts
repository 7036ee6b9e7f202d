import { describe, expect, it } from "vitest";
import type { StandardJsonSchema } from "../../protocol/index.ts";
import { catchTetherError } from "../../testing/index.ts";
import { defineTool } from "./define-tool.ts";

/** A schema from a library that is not zod: only the Standard Schema interface and its JSON Schema extension. */
const countSchema: StandardJsonSchema<{ count: number }> = {
  "~standard": {
    version: 1,
    vendor: "hand-made",
    validate: (value) =>
      typeof (value as { count?: unknown }).count === "number"
        ? { value: { count: Math.round((value as { count: number }).count) } }
        : { issues: [{ path: ["count"], message: "Expected a number" }] },
    jsonSchema: {
      input: () => ({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { count: { type: "number" } }, required: ["count"] }),
    },
  },
};

describe("defineTool with any Standard Schema", () => {
  const tool = defineTool({ name: "countItems", description: "Counts.", parameters: countSchema, execute: ({ count }) => count });

  it("gives the model the schema's own JSON Schema, without $schema", () => {
    expect(tool.parameters).toEqual({ type: "object", properties: { count: { type: "number" } }, required: ["count"] });
  });

  it("parses arguments with the schema's own validation, and refuses what it refuses with invalid_arguments", () => {
    expect(tool.parse!({ count: 2.6 })).toEqual({ count: 3 });
    expect(catchTetherError(() => tool.parse!({ count: "two" }))).toMatchObject({
      code: "invalid_arguments",
      message: expect.stringContaining("count: Expected a number"),
    });
  });
});
