import type { JsonSchemaLike } from "./catalog.ts";
import { isPlainObject } from "./is-plain-object.ts";

/** How one property of a component refers to other components. */
export type RefKind =
  /** One component id (`Card.child`, `Modal.content`). */
  | { kind: "single" }
  /** Ids in an array, or a `{componentId, path}` template (`Column.children`). */
  | { kind: "list" }
  /** An array of objects whose `keys` hold ids (`Tabs.tabs[].child`). */
  | { kind: "nested"; keys: string[] };

/** What validation needs from a component's schema. */
export interface ComponentSchema {
  /** Properties the component must have, `component` and `id` aside. */
  required: string[];
  /** Properties that hold component ids, by name. */
  refFields: Map<string, RefKind>;
}

/**
 * Child references and required properties, read from a component's JSON
 * Schema. A property is a reference when its schema is a `$ref` to the v0.9
 * common types `ComponentId` or `ChildList` (what `@a2ui/web_core` emits for
 * its `componentId()`/`childList()` zod helpers), or carries the a2ui-toolkit's
 * `format: "componentRef" | "componentRefList"`. `allOf` parts are merged, as
 * web_core wraps each component in `allOf: [ComponentCommon, {…}]`.
 */
export function readComponentSchema(schema: JsonSchemaLike): ComponentSchema {
  // A client's inline catalog is JSON from anywhere: an entry that is not a schema describes nothing.
  const { properties, required } = isPlainObject(schema) ? flatten(schema) : { properties: {}, required: [] };
  const refFields = new Map<string, RefKind>();
  for (const [name, property] of Object.entries(properties)) {
    const kind = refKindOf(property);
    if (kind) refFields.set(name, kind);
  }
  return { required: required.filter((name) => name !== "component" && name !== "id"), refFields };
}

/**
 * For components no catalog describes: `child` and `children` are references
 * by the v0.9 convention, so their links are still checked.
 */
export const CONVENTIONAL_REF_FIELDS: ReadonlyMap<string, RefKind> = new Map<string, RefKind>([
  ["child", { kind: "single" }],
  ["children", { kind: "list" }],
]);

function flatten(schema: JsonSchemaLike): { properties: Record<string, unknown>; required: string[] } {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const parts = [schema, ...(Array.isArray(schema.allOf) ? schema.allOf : [])];
  for (const part of parts) {
    if (!isPlainObject(part)) continue;
    if (isPlainObject(part.properties)) Object.assign(properties, part.properties);
    if (Array.isArray(part.required)) required.push(...part.required.filter((name): name is string => typeof name === "string"));
  }
  return { properties, required: [...new Set(required)] };
}

function refKindOf(property: unknown): RefKind | undefined {
  if (!isPlainObject(property)) return undefined;
  if (isComponentId(property)) return { kind: "single" };
  if (refersTo(property, "ChildList") || property.format === "componentRefList") return { kind: "list" };
  const items = property.type === "array" ? property.items : undefined;
  if (!isPlainObject(items)) return undefined;
  if (isComponentId(items)) return { kind: "list" };
  const keys = isPlainObject(items.properties)
    ? Object.keys(items.properties).filter((key) => isComponentId((items.properties as Record<string, unknown>)[key]))
    : [];
  return keys.length > 0 ? { kind: "nested", keys } : undefined;
}

function isComponentId(schema: unknown): boolean {
  return isPlainObject(schema) && (refersTo(schema, "ComponentId") || schema.format === "componentRef");
}

function refersTo(schema: Record<string, unknown>, definition: string): boolean {
  return typeof schema.$ref === "string" && schema.$ref.endsWith(`/$defs/${definition}`);
}
