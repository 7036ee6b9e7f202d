import type { RefKind } from "./component-schema.ts";
import { isPlainObject } from "./is-plain-object.ts";

/** One place where a component names another. */
export interface ChildRef {
  /** Where the id sits, below the component: `children[1]`, `tabs[0].child`. */
  path: string;
  id: string;
  /** For a `{componentId, path}` template: the data path of the list it repeats over. */
  templatePath?: string;
}

/**
 * The component ids a component refers to, in property order. A value of the
 * wrong shape is skipped here; the property checks report it.
 */
export function collectChildRefs(component: Record<string, unknown>, refFields: ReadonlyMap<string, RefKind>): ChildRef[] {
  const refs: ChildRef[] = [];
  for (const [name, kind] of refFields) {
    const value = component[name];
    if (kind.kind === "single") {
      if (typeof value === "string") refs.push({ path: name, id: value });
    } else if (kind.kind === "list") {
      if (Array.isArray(value)) {
        value.forEach((id: unknown, index) => {
          if (typeof id === "string") refs.push({ path: `${name}[${index}]`, id });
        });
      } else if (isPlainObject(value) && typeof value.componentId === "string") {
        const template: ChildRef = { path: `${name}.componentId`, id: value.componentId };
        if (typeof value.path === "string") template.templatePath = value.path;
        refs.push(template);
      }
    } else if (Array.isArray(value)) {
      value.forEach((item: unknown, index) => {
        if (!isPlainObject(item)) return;
        for (const key of kind.keys) {
          const id = item[key];
          if (typeof id === "string") refs.push({ path: `${name}[${index}].${key}`, id });
        }
      });
    }
  }
  return refs;
}
