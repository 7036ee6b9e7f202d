import { collectChildRefs, type ChildRef } from "./child-refs.ts";
import type { RefKind } from "./component-schema.ts";
import type { ComponentEntry } from "./render-a2ui-args.ts";

/** The components of a surface as a graph: who refers to whom. */
export interface SurfaceGraph {
  components: ComponentEntry[];
  /** Child references, per component index. */
  refs: ChildRef[][];
  /** The index of the first component with each id; later duplicates are errors. */
  indexById: Map<string, number>;
}

export const ROOT_ID = "root";

export function buildSurfaceGraph(components: ComponentEntry[], refFieldsOf: (component: ComponentEntry) => ReadonlyMap<string, RefKind>): SurfaceGraph {
  const indexById = new Map<string, number>();
  components.forEach((component, index) => {
    if (!indexById.has(component.id)) indexById.set(component.id, index);
  });
  const refs = components.map((component) => collectChildRefs(component, refFieldsOf(component)));
  return { components, refs, indexById };
}
