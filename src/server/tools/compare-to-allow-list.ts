import { diffSchemas, splitSchemaDiff, type BrowserToolSpec, type JsonSchema, type SchemaDifference } from "../../protocol/index.ts";

/** Frozen, and typed so: a remembered comparison is every later caller's. */
export interface Comparison {
  readonly shape: readonly Readonly<SchemaDifference>[];
  readonly annotations: readonly Readonly<SchemaDifference>[];
}

/** Declarations remembered per allow-listed tool (the least recently used goes first), and the longest one remembered (in characters of its JSON): a client cannot make it hold much. */
const REMEMBERED = 32;
const LONGEST = 8192;

const remembered = new WeakMap<BrowserToolSpec, Map<string, Comparison>>();

/**
 * How a declared tool's parameters differ from its allow-listed schema, in
 * shape and in wording. A frontend declares the same tools with every run, so
 * the comparison of a declaration already seen (the same JSON) is
 * remembered rather than walked again; a few dozen per tool at most. Every
 * comparison is frozen, since every later caller gets a remembered one.
 */
export function compareToAllowList(spec: BrowserToolSpec, declared: JsonSchema): Comparison {
  const key = faithfulJson(declared);
  if (key === undefined || key.length > LONGEST) return compare(spec, declared);
  let seen = remembered.get(spec);
  if (!seen) remembered.set(spec, (seen = new Map()));
  let comparison = seen.get(key);
  if (comparison) {
    seen.delete(key); // set again below, as the most recently used: what a deployed frontend sends stays, whatever else comes and goes
  } else {
    comparison = compare(spec, declared);
    if (seen.size >= REMEMBERED) seen.delete(seen.keys().next().value!);
  }
  seen.set(key, comparison);
  return comparison;
}

/** Frozen whether remembered or not: a caller that would change a comparison fails every time, not only on a remembered one. */
function compare(spec: BrowserToolSpec, declared: JsonSchema): Comparison {
  return freeze(splitSchemaDiff(diffSchemas(spec.parameters, declared)));
}

let faithful = true;
const noteUnprintable = (_key: string, value: unknown) => {
  // JSON prints -0 as 0 and a parsed 1e400 (Infinity) as null, yet the comparison tells them apart: such a key would answer for another declaration.
  if (typeof value === "number" && (Object.is(value, -0) || !Number.isFinite(value))) faithful = false;
  return value;
};

/** The declaration's JSON, or undefined when the JSON would not tell it apart from another declaration. */
function faithfulJson(declared: JsonSchema): string | undefined {
  faithful = true;
  const json = JSON.stringify(declared, noteUnprintable);
  return faithful ? json : undefined;
}

function freeze(comparison: ReturnType<typeof splitSchemaDiff>): Comparison {
  for (const difference of [...comparison.shape, ...comparison.annotations]) Object.freeze(difference);
  Object.freeze(comparison.shape);
  Object.freeze(comparison.annotations);
  return Object.freeze(comparison);
}
