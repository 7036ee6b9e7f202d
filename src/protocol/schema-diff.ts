/**
 * Schema-aware comparison of two JSON Schemas, with a readable list of what
 * changed. Key order never matters; `required` and `enum` are compared as sets
 * because their order carries no meaning.
 *
 * Each difference is either one of SHAPE (anything that changes what
 * validates) or one of ANNOTATION (`description`, `title`, `examples`,
 * `$comment` where they sit as keywords of a schema). A frontend rewords its
 * tools through annotations, so only shape differences are drift.
 */

export interface SchemaDifference {
  /** Where, as a JSON path from the schema root: `properties.screenId.type`. */
  path: string;
  kind: "missing" | "unexpected" | "changed";
  expected?: unknown;
  actual?: unknown;
  /** Set when only an annotation differs: wording for the model, never a change to what validates. */
  annotation?: true;
}

type Diff = (expected: unknown, actual: unknown, path: string) => SchemaDifference[];

/** Keywords that only explain a schema; JSON Schema validation ignores them. */
const ANNOTATION_KEYWORDS = new Set(["description", "title", "examples", "$comment"]);

/** Keywords whose value is a schema, or a list of schemas (`items` may be either). */
const SUBSCHEMA_KEYWORDS = new Set([
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "unevaluatedItems",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
]);

/**
 * Keywords whose value maps names to schemas. Their keys are names the
 * schema author chose, so a property called `description` is shape.
 */
const SCHEMA_MAP_KEYWORDS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

const SET_KEYWORDS = new Set(["required", "enum"]);

/**
 * Keywords that constrain nothing when absent. Written as a schema that
 * accepts everything (`{}`, `true`; for `propertyNames` also `{ type:
 * "string" }`, since every property name is a string), they say the same:
 * one side writing them and the other leaving them out is no change, as
 * long as no `unevaluatedProperties` beside them gives them a meaning.
 * (CopilotKit's frontend drops every `additionalProperties`, and zod 3's
 * records carry no `propertyNames`.)
 */
const ABSENT_MEANS_ANYTHING = new Set(["additionalProperties", "propertyNames"]);

/** Every difference between two schemas, shape and annotation alike; see `splitSchemaDiff`. */
export function diffSchemas(expected: unknown, actual: unknown, path = ""): SchemaDifference[] {
  if (!isPlainObject(expected) || !isPlainObject(actual)) return diffValues(expected, actual, path);
  const evaluates = Object.hasOwn(expected, "unevaluatedProperties") || Object.hasOwn(actual, "unevaluatedProperties");
  return diffEntries(expected, actual, path, (keyword, expectedValue, actualValue, keywordPath) =>
    !evaluates &&
    ABSENT_MEANS_ANYTHING.has(keyword) &&
    (expectedValue === undefined || actualValue === undefined) &&
    acceptsAnything(keyword, expectedValue ?? actualValue)
      ? []
      : diffKeyword(keyword, expectedValue, actualValue, keywordPath),
  );
}

/** Separates what would validate differently (`shape`) from differences in wording (`annotations`). */
export function splitSchemaDiff(differences: SchemaDifference[]): { shape: SchemaDifference[]; annotations: SchemaDifference[] } {
  return {
    shape: differences.filter((difference) => !difference.annotation),
    annotations: differences.filter((difference) => difference.annotation),
  };
}

function diffKeyword(keyword: string, expected: unknown, actual: unknown, path: string): SchemaDifference[] {
  if (ANNOTATION_KEYWORDS.has(keyword)) {
    const differences = diffValues(expected, actual, path);
    // Wording only when it is wording: a description that is not a string would fail at the provider, on every run.
    return wellFormedAnnotation(keyword, actual) ? differences.map((difference) => ({ ...difference, annotation: true as const })) : differences;
  }
  if (SUBSCHEMA_KEYWORDS.has(keyword)) return diffSubschemas(expected, actual, path);
  if (SCHEMA_MAP_KEYWORDS.has(keyword) && isPlainObject(expected) && isPlainObject(actual)) {
    return diffEntries(expected, actual, path, (_name, expectedSchema, actualSchema, schemaPath) => diffSchemas(expectedSchema, actualSchema, schemaPath));
  }
  if (SET_KEYWORDS.has(keyword) && Array.isArray(expected) && Array.isArray(actual)) return diffSets(expected, actual, path);
  return diffValues(expected, actual, path);
}

function diffSubschemas(expected: unknown, actual: unknown, path: string): SchemaDifference[] {
  if (Array.isArray(expected) && Array.isArray(actual)) return diffItems(expected, actual, path, diffSchemas);
  return diffSchemas(expected, actual, path);
}

/** Plain data (`type`, `const`, `default`, unknown keywords…): every part of it counts. */
const diffValues: Diff = (expected, actual, path) => {
  if (Object.is(expected, actual)) return [];
  // JSON has no undefined: here it stands for a key that one side does not have.
  if (actual === undefined) return [{ path: path || "(root)", kind: "missing", expected }];
  if (expected === undefined) return [{ path: path || "(root)", kind: "unexpected", actual }];
  if (Array.isArray(expected) && Array.isArray(actual)) return diffItems(expected, actual, path, diffValues);
  if (isPlainObject(expected) && isPlainObject(actual)) {
    return diffEntries(expected, actual, path, (_name, expectedValue, actualValue, valuePath) => diffValues(expectedValue, actualValue, valuePath));
  }
  return [{ path: path || "(root)", kind: "changed", expected, actual }];
};

function diffItems(expected: unknown[], actual: unknown[], path: string, diffItem: Diff): SchemaDifference[] {
  if (expected.length !== actual.length) return [{ path: path || "(root)", kind: "changed", expected, actual }];
  return expected.flatMap((item, index) => diffItem(item, actual[index], `${path}[${index}]`));
}

/** Walks the keys of both objects, expected's first; a key only one side has arrives as undefined on the other. */
function diffEntries(
  expected: Record<string, unknown>,
  actual: Record<string, unknown>,
  path: string,
  diffEntry: (name: string, expected: unknown, actual: unknown, path: string) => SchemaDifference[],
): SchemaDifference[] {
  const names = [...Object.keys(expected), ...Object.keys(actual).filter((name) => !Object.hasOwn(expected, name))];
  // Own keys only: a property named "constructor" must not find Object.prototype's.
  const own = (object: Record<string, unknown>, name: string) => (Object.hasOwn(object, name) ? object[name] : undefined);
  return names.flatMap((name) => diffEntry(name, own(expected, name), own(actual, name), path ? `${path}.${name}` : name));
}

function diffSets(expected: unknown[], actual: unknown[], path: string): SchemaDifference[] {
  const expectedKeys = new Set(expected.map((item) => JSON.stringify(item)));
  const actualKeys = new Set(actual.map((item) => JSON.stringify(item)));
  const same = expectedKeys.size === actualKeys.size && [...expectedKeys].every((item) => actualKeys.has(item));
  return same ? [] : [{ path, kind: "changed", expected, actual }];
}

/** A subschema every value passes, with annotations a provider takes (a malformed one is a difference wherever it sits). */
function acceptsAnything(keyword: string, schema: unknown): boolean {
  if (schema === true) return true;
  if (!isPlainObject(schema)) return false;
  if (!Object.entries(schema).every(([name, value]) => !ANNOTATION_KEYWORDS.has(name) || wellFormedAnnotation(name, value))) return false;
  const constraints = Object.keys(schema).filter((name) => !ANNOTATION_KEYWORDS.has(name));
  if (constraints.length === 0) return true;
  return keyword === "propertyNames" && constraints.length === 1 && schema.type === "string";
}

/** `examples` is a list; the other annotations are text. Absent is fine (the frontend left it out). */
function wellFormedAnnotation(keyword: string, value: unknown): boolean {
  return value === undefined || (keyword === "examples" ? Array.isArray(value) : typeof value === "string");
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One line per difference, e.g. `properties.screenId.type: expected "string", got "number"`. */
export function formatSchemaDiff(differences: readonly SchemaDifference[]): string {
  return differences
    .map((difference) => {
      const show = (value: unknown) => JSON.stringify(value);
      if (difference.kind === "missing") return `${difference.path}: missing (expected ${show(difference.expected)})`;
      if (difference.kind === "unexpected") return `${difference.path}: not in the allow-listed schema (got ${show(difference.actual)})`;
      return `${difference.path}: expected ${show(difference.expected)}, got ${show(difference.actual)}`;
    })
    .join("\n");
}
