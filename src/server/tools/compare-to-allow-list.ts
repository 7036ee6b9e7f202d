import { diffSchemas, splitSchemaDiff, type BrowserToolSpec, type JsonSchema } from "../../protocol/index.ts";

type Comparison = ReturnType<typeof splitSchemaDiff>;

/** Declarations remembered per allow-listed tool, and the longest one remembered: a client cannot make it hold much. */
const REMEMBERED = 32;
const LONGEST = 8192;

const remembered = new WeakMap<BrowserToolSpec, Map<string, Comparison>>();

/**
 * How a declared tool's parameters differ from its allow-listed schema, in
 * shape and in wording. A frontend declares the same tools with every run, so
 * the comparison of a declaration already seen (the same JSON) is
 * remembered rather than walked again; a few dozen per tool at most.
 */
export function compareToAllowList(spec: BrowserToolSpec, declared: JsonSchema): Comparison {
  const key = JSON.stringify(declared);
  let seen = remembered.get(spec);
  const known = seen?.get(key);
  if (known) return known;
  const comparison = splitSchemaDiff(diffSchemas(spec.parameters, declared));
  if (key.length <= LONGEST) {
    if (!seen) remembered.set(spec, (seen = new Map()));
    if (seen.size < REMEMBERED) seen.set(key, comparison);
  }
  return comparison;
}
