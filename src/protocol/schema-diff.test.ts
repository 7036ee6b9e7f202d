import { describe, expect, it } from "vitest";
import { diffSchemas, formatSchemaDiff, splitSchemaDiff } from "./schema-diff.ts";

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

  // A lookup through the prototype chain would never report a property named like an
  // Object.prototype member ("constructor", "toString", "valueOf") that only the actual schema has.
  it("takes a keyword that accepts everything as the same as its absence (CopilotKit drops additionalProperties, zod 3 records have no propertyNames)", () => {
    const record = { type: "object", propertyNames: { type: "string" }, additionalProperties: {} };
    expect(diffSchemas({ type: "object", properties: { payload: record } }, { type: "object", properties: { payload: { type: "object" } } })).toEqual([]);
    expect(diffSchemas({ type: "object", additionalProperties: { description: "anything" } }, { type: "object" })).toEqual([]);
  });

  it("still reports a keyword that constrains when the other side leaves it out", () => {
    expect(diffSchemas({ type: "object", additionalProperties: false }, { type: "object" })).toEqual([
      { path: "additionalProperties", kind: "missing", expected: false },
    ]);
    expect(diffSchemas({ type: "object" }, { type: "object", additionalProperties: { type: "string" } })).toEqual([
      { path: "additionalProperties", kind: "unexpected", actual: { type: "string" } },
    ]);
    expect(diffSchemas({ type: "object", propertyNames: { type: "string", pattern: "^[a-z]+$" } }, { type: "object" })).toHaveLength(1);
    expect(diffSchemas({ type: "array", contains: {} }, { type: "array" })).toHaveLength(1); // an empty contains still needs one item
    // Beside unevaluatedProperties, additionalProperties: true marks every property evaluated: it means something there.
    expect(
      diffSchemas({ type: "object", unevaluatedProperties: false }, { type: "object", unevaluatedProperties: false, additionalProperties: true }),
    ).toHaveLength(1);
    // A malformed annotation is a difference wherever it hides.
    expect(diffSchemas({ type: "object" }, { type: "object", additionalProperties: { description: 42 } })).toHaveLength(1);
  });

  it("reports an unexpected property even when it is named like an Object.prototype member", () => {
    const actual = { ...navigateSchema, properties: { ...navigateSchema.properties, constructor: { type: "string" } } };

    expect(diffSchemas(navigateSchema, actual)).toEqual([{ path: "properties.constructor", kind: "unexpected", actual: { type: "string" } }]);
  });
});

const offerRecipesSchema = {
  type: "object",
  properties: {
    recipes: {
      type: "array",
      description: "The recipes to offer.",
      maxItems: 3,
      items: {
        type: "object",
        properties: {
          id: { type: "string", format: "uuid" },
          reason: { type: "string", description: "Why this recipe fits, in one sentence." },
          diet: { type: "string", enum: ["any", "vegetarian", "vegan"] },
        },
        required: ["id", "reason"],
        additionalProperties: false,
      },
    },
  },
  required: ["recipes"],
};

/** The recipes schema with `edit` applied to a deep copy. */
function offerRecipesWith(edit: (schema: typeof offerRecipesSchema & Record<string, any>) => void) {
  const schema = structuredClone(offerRecipesSchema) as typeof offerRecipesSchema & Record<string, any>;
  edit(schema);
  return schema;
}

const item = (schema: typeof offerRecipesSchema) => schema.properties.recipes.items as Record<string, any>;

describe("diffSchemas, shape and annotations", () => {
  it("marks a changed nested property description as an annotation difference, with no shape difference", () => {
    const actual = offerRecipesWith((schema) => (item(schema).properties.reason.description = "Offer exactly one recipe; say why it fits."));

    const differences = diffSchemas(offerRecipesSchema, actual);

    expect(differences).toEqual([
      {
        path: "properties.recipes.items.properties.reason.description",
        kind: "changed",
        expected: "Why this recipe fits, in one sentence.",
        actual: "Offer exactly one recipe; say why it fits.",
        annotation: true,
      },
    ]);
    expect(splitSchemaDiff(differences).shape).toEqual([]);
  });

  it("marks title, examples and $comment added or removed at depth as annotation differences", () => {
    const expected = offerRecipesWith((schema) => (item(schema).properties.id.$comment = "A catalogue id."));
    const actual = offerRecipesWith((schema) => {
      item(schema).title = "Recipe";
      item(schema).properties.reason.examples = ["Ready in 20 minutes."];
    });

    const differences = diffSchemas(expected, actual);

    expect(differences.map(({ kind, path, annotation }) => ({ kind, path, annotation }))).toEqual([
      { kind: "missing", path: "properties.recipes.items.properties.id.$comment", annotation: true },
      { kind: "unexpected", path: "properties.recipes.items.properties.reason.examples", annotation: true },
      { kind: "unexpected", path: "properties.recipes.items.title", annotation: true },
    ]);
    expect(splitSchemaDiff(differences).shape).toEqual([]);
  });

  it("marks a changed example inside examples as an annotation difference", () => {
    const expected = offerRecipesWith((schema) => (item(schema).properties.reason.examples = ["Ready in 20 minutes."]));
    const actual = offerRecipesWith((schema) => (item(schema).properties.reason.examples = ["Uses what is in the fridge."]));

    expect(diffSchemas(expected, actual)).toEqual([
      {
        path: "properties.recipes.items.properties.reason.examples[0]",
        kind: "changed",
        expected: "Ready in 20 minutes.",
        actual: "Uses what is in the fridge.",
        annotation: true,
      },
    ]);
  });

  it("reports a type changed at depth as a shape difference", () => {
    const actual = offerRecipesWith((schema) => (item(schema).properties.id.type = "integer"));

    expect(splitSchemaDiff(diffSchemas(offerRecipesSchema, actual))).toEqual({
      shape: [{ path: "properties.recipes.items.properties.id.type", kind: "changed", expected: "string", actual: "integer" }],
      annotations: [],
    });
  });

  it("reports a changed enum as a shape difference, next to a description that is only an annotation", () => {
    const actual = offerRecipesWith((schema) => {
      item(schema).properties.diet.enum = ["any", "vegetarian"];
      item(schema).properties.diet.description = "Only what the user asked for.";
    });

    const { shape, annotations } = splitSchemaDiff(diffSchemas(offerRecipesSchema, actual));

    expect(shape.map((difference) => difference.path)).toEqual(["properties.recipes.items.properties.diet.enum"]);
    expect(annotations.map((difference) => difference.path)).toEqual(["properties.recipes.items.properties.diet.description"]);
  });

  it("reports format, maxItems and additionalProperties changed at depth as shape differences", () => {
    const actual = offerRecipesWith((schema) => {
      schema.properties.recipes.maxItems = 1;
      item(schema).properties.id.format = "uri";
      item(schema).additionalProperties = true;
    });

    expect(splitSchemaDiff(diffSchemas(offerRecipesSchema, actual)).shape.map((difference) => difference.path)).toEqual([
      "properties.recipes.maxItems",
      "properties.recipes.items.properties.id.format",
      "properties.recipes.items.additionalProperties",
    ]);
  });

  it("reports a property named description added or removed as a shape difference", () => {
    const withDescription = offerRecipesWith((schema) => (item(schema).properties.description = { type: "string" }));

    expect(diffSchemas(offerRecipesSchema, withDescription)).toEqual([
      { path: "properties.recipes.items.properties.description", kind: "unexpected", actual: { type: "string" } },
    ]);
    expect(diffSchemas(withDescription, offerRecipesSchema)).toEqual([
      { path: "properties.recipes.items.properties.description", kind: "missing", expected: { type: "string" } },
    ]);
  });

  it("reports a property named title whose type changed as shape, and its own description as an annotation", () => {
    const expected = offerRecipesWith((schema) => (item(schema).properties.title = { type: "string", description: "The recipe's name." }));
    const actual = offerRecipesWith((schema) => (item(schema).properties.title = { type: "number", description: "How the user calls it." }));

    const { shape, annotations } = splitSchemaDiff(diffSchemas(expected, actual));

    expect(shape.map((difference) => difference.path)).toEqual(["properties.recipes.items.properties.title.type"]);
    expect(annotations.map((difference) => difference.path)).toEqual(["properties.recipes.items.properties.title.description"]);
  });

  it("reads annotations inside anyOf, not, if/then/else, prefixItems, additionalProperties and $defs", () => {
    const schema = (wording: string) => ({
      $defs: { amount: { type: "number", description: wording } },
      anyOf: [{ type: "string", title: wording }, { type: "null" }],
      not: { const: "none", $comment: wording },
      if: { required: ["unit"], description: wording },
      then: { properties: { unit: { type: "string", description: wording } } },
      else: { examples: [wording] },
      prefixItems: [{ type: "integer", description: wording }],
      additionalProperties: { type: "boolean", description: wording },
    });

    const { shape, annotations } = splitSchemaDiff(diffSchemas(schema("desktop"), schema("mobile")));

    expect(shape).toEqual([]);
    expect(annotations.map((difference) => difference.path)).toEqual([
      "$defs.amount.description",
      "anyOf[0].title",
      "not.$comment",
      "if.description",
      "then.properties.unit.description",
      "else.examples[0]",
      "prefixItems[0].description",
      "additionalProperties.description",
    ]);
  });

  it("counts a description key inside const or default as data, so changing it is shape", () => {
    const expected = { type: "object", const: { description: "fixed" }, default: { title: "a" } };
    const actual = { type: "object", const: { description: "other" }, default: { title: "b" } };

    expect(splitSchemaDiff(diffSchemas(expected, actual)).shape.map((difference) => difference.path)).toEqual(["const.description", "default.title"]);
  });

  it("finds only the annotation difference when the keys also come in another order", () => {
    const actual = {
      required: ["recipes"],
      properties: {
        recipes: {
          items: {
            additionalProperties: false,
            required: ["reason", "id"],
            properties: {
              diet: { enum: ["vegan", "any", "vegetarian"], type: "string" },
              reason: { description: "At most three; say why each fits.", type: "string" },
              id: { format: "uuid", type: "string" },
            },
            type: "object",
          },
          maxItems: 3,
          description: "The recipes to offer.",
          type: "array",
        },
      },
      type: "object",
    };

    expect(diffSchemas(offerRecipesSchema, actual).map(({ path, annotation }) => ({ path, annotation }))).toEqual([
      { path: "properties.recipes.items.properties.reason.description", annotation: true },
    ]);
  });
});

describe("splitSchemaDiff", () => {
  it("keeps each group in the order diffSchemas found it", () => {
    const actual = offerRecipesWith((schema) => {
      schema.properties.recipes.description = "Recipes.";
      schema.properties.recipes.maxItems = 5;
      item(schema).properties.reason.description = "Why.";
      item(schema).properties.reason.type = "array";
    });

    const { shape, annotations } = splitSchemaDiff(diffSchemas(offerRecipesSchema, actual));

    expect(shape.map((difference) => difference.path)).toEqual(["properties.recipes.maxItems", "properties.recipes.items.properties.reason.type"]);
    expect(annotations.map((difference) => difference.path)).toEqual([
      "properties.recipes.description",
      "properties.recipes.items.properties.reason.description",
    ]);
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

describe("annotations that are not wording", () => {
  const expected = { type: "object", properties: { id: { type: "string", description: "The id." } } };
  it.each([
    ["a description that is not text", { description: ["a", "list"] }],
    ["a title that is a number", { title: 7 }],
    ["examples that are not a list", { examples: "one" }],
  ])("counts %s as shape", (_what, annotation) => {
    const actual = { type: "object", properties: { id: { type: "string", description: "The id.", ...annotation } } };
    const { shape, annotations } = splitSchemaDiff(diffSchemas(expected, actual));
    expect(shape).toHaveLength(1);
    expect(annotations).toEqual([]);
  });
});
