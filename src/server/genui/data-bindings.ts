import { isPlainObject } from "./is-plain-object.ts";

/** A `{path}` data binding found in a component. */
export interface DataBinding {
  /** Where it sits below the component: `text`, `action.event.context.userName`. */
  path: string;
  /** The JSON Pointer it reads; relative when it does not start with `/`. */
  pointer: string;
}

/** Deep enough for any real component; the walk stops there rather than on a stack overflow. */
const MAX_DEPTH = 32;

/**
 * Every `{path: "…"}` value in a component's properties (the v0.9
 * DataBinding shape, an object whose only key is `path`), wherever it sits:
 * a property, a function call's `args`, an action's `event.context`, a check's
 * condition. `{componentId, path}` templates are links, not bindings; the
 * graph walk checks them.
 */
export function collectDataBindings(component: Record<string, unknown>): DataBinding[] {
  const bindings: DataBinding[] = [];
  const walk = (value: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => walk(item, `${path}[${index}]`, depth + 1));
      return;
    }
    if (!isPlainObject(value)) return;
    const keys = Object.keys(value);
    if (keys.length === 1 && typeof value.path === "string") {
      bindings.push({ path, pointer: value.path });
      return;
    }
    if (typeof value.componentId === "string") return;
    for (const key of keys) walk(value[key], path ? `${path}.${key}` : key, depth + 1);
  };
  for (const [key, value] of Object.entries(component)) {
    if (key !== "id" && key !== "component") walk(value, key, 1);
  }
  return bindings;
}
