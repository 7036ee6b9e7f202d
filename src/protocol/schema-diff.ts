/**
 * Structural comparison of two JSON Schemas, with a readable list of what
 * changed. Key order never matters; `required` and `enum` are compared as sets
 * because their order carries no meaning.
 */

export interface SchemaDifference {
  /** Where, as a JSON path from the schema root: `properties.screenId.type`. */
  path: string;
  kind: "missing" | "unexpected" | "changed";
  expected?: unknown;
  actual?: unknown;
}

const SET_KEYWORDS = new Set(["required", "enum"]);

export function diffSchemas(expected: unknown, actual: unknown, path = ""): SchemaDifference[] {
  if (Object.is(expected, actual)) return [];
  const key = path.slice(path.lastIndexOf(".") + 1);
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (SET_KEYWORDS.has(key)) return diffSets(expected, actual, path);
    if (expected.length !== actual.length) return [{ path: path || "(root)", kind: "changed", expected, actual }];
    return expected.flatMap((item, index) => diffSchemas(item, actual[index], `${path}[${index}]`));
  }
  if (isPlainObject(expected) && isPlainObject(actual)) {
    const differences: SchemaDifference[] = [];
    for (const name of Object.keys(expected)) {
      const childPath = path ? `${path}.${name}` : name;
      if (!Object.hasOwn(actual, name)) differences.push({ path: childPath, kind: "missing", expected: expected[name] });
      else differences.push(...diffSchemas(expected[name], actual[name], childPath));
    }
    for (const name of Object.keys(actual)) {
      if (!Object.hasOwn(expected, name)) {
        differences.push({ path: path ? `${path}.${name}` : name, kind: "unexpected", actual: actual[name] });
      }
    }
    return differences;
  }
  return [{ path: path || "(root)", kind: "changed", expected, actual }];
}

function diffSets(expected: unknown[], actual: unknown[], path: string): SchemaDifference[] {
  const expectedKeys = new Set(expected.map((item) => JSON.stringify(item)));
  const actualKeys = new Set(actual.map((item) => JSON.stringify(item)));
  const same = expectedKeys.size === actualKeys.size && [...expectedKeys].every((item) => actualKeys.has(item));
  return same ? [] : [{ path, kind: "changed", expected, actual }];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One line per difference, e.g. `properties.screenId.type: expected "string", got "number"`. */
export function formatSchemaDiff(differences: SchemaDifference[]): string {
  return differences
    .map((difference) => {
      const show = (value: unknown) => JSON.stringify(value);
      if (difference.kind === "missing") return `${difference.path}: missing (expected ${show(difference.expected)})`;
      if (difference.kind === "unexpected") return `${difference.path}: not in the allow-listed schema (got ${show(difference.actual)})`;
      return `${difference.path}: expected ${show(difference.expected)}, got ${show(difference.actual)}`;
    })
    .join("\n");
}
