import { isPlainObject } from "./is-plain-object.ts";
import { quote, type SurfaceError } from "./surface-error.ts";

/** The arguments of a `render_a2ui` call, the middleware's tool shape. */
export interface RenderA2uiArgs {
  surfaceId: string;
  /** The A2UI v0.9 component list, flat: children are referred to by id. */
  components: unknown[];
  /** The data model the components' `{path}` bindings read, set at `/`. */
  data?: Record<string, unknown>;
  /** One of the catalogs the client declared; the first declared one when absent. */
  catalogId?: string;
}

/** A component once its shape is known: the rest of its keys are its properties. */
export interface ComponentEntry {
  id: string;
  component: string;
  [property: string]: unknown;
}

export const MAX_COMPONENTS = 500;
export const MAX_ID_LENGTH = 128;

export type ArgsShape = { ok: true; args: RenderA2uiArgs; components: ComponentEntry[] } | { ok: false; errors: SurfaceError[] };

/**
 * Checks the outline of the arguments before anything reads them: a surface
 * id, a bounded non-empty list of objects each with a string `id` and
 * `component`, and a plain-object data model.
 */
// Deeper than any UI needs, and shallow enough that nothing after this check recurses into trouble.
const MAX_DEPTH = 32;

/** Whether a JSON value nests deeper than `limit`, walked without recursion. */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

export function checkArgsShape(input: unknown): ArgsShape {
  if (!isPlainObject(input)) return { ok: false, errors: [{ code: "schema", path: "", message: "the arguments must be an object" }] };
  const errors: SurfaceError[] = [];
  const { surfaceId, components, data, catalogId } = input;

  if (typeof surfaceId !== "string" || surfaceId.trim().length === 0) {
    errors.push({ code: "schema", path: "surfaceId", message: "surfaceId must be a non-empty string" });
  } else if (surfaceId.length > MAX_ID_LENGTH) {
    errors.push({ code: "schema", path: "surfaceId", message: `surfaceId must be at most ${MAX_ID_LENGTH} characters` });
  }
  if (catalogId !== undefined && (typeof catalogId !== "string" || catalogId.length === 0)) {
    errors.push({ code: "schema", path: "catalogId", message: "catalogId must be a non-empty string when given" });
  }
  if (data !== undefined && !isPlainObject(data)) {
    errors.push({ code: "schema", path: "data", message: "data must be an object (the data model at '/')" });
  } else if (data !== undefined && deeperThan(data, MAX_DEPTH)) {
    errors.push({ code: "schema", path: "data", message: `data is nested more than ${MAX_DEPTH} levels deep` });
  }

  if (!Array.isArray(components) || components.length === 0) {
    errors.push({ code: "schema", path: "components", message: "components must be a non-empty array" });
  } else if (components.length > MAX_COMPONENTS) {
    errors.push({ code: "schema", path: "components", message: `a surface has at most ${MAX_COMPONENTS} components, got ${components.length}` });
  } else {
    components.forEach((component: unknown, index) => {
      if (deeperThan(component, MAX_DEPTH))
        errors.push({ code: "schema", path: `components[${index}]`, message: `a component is nested more than ${MAX_DEPTH} levels deep` });
      else errors.push(...checkComponentShape(component, `components[${index}]`));
    });
  }

  if (errors.length > 0) return { ok: false, errors };
  const args: RenderA2uiArgs = { surfaceId: surfaceId as string, components: components as unknown[] };
  if (data !== undefined) args.data = data as Record<string, unknown>;
  if (catalogId !== undefined) args.catalogId = catalogId as string;
  return { ok: true, args, components: components as ComponentEntry[] };
}

function checkComponentShape(component: unknown, path: string): SurfaceError[] {
  if (!isPlainObject(component)) return [{ code: "schema", path, message: "each component must be an object" }];
  const errors: SurfaceError[] = [];
  const { id, component: name } = component;
  if (typeof id !== "string" || id.length === 0) {
    errors.push({ code: "schema", path: `${path}.id`, message: "each component needs a non-empty string id" });
  } else if (id.length > MAX_ID_LENGTH) {
    errors.push({ code: "schema", path: `${path}.id`, message: `the id ${quote(id)} is longer than ${MAX_ID_LENGTH} characters` });
  }
  if (typeof name !== "string" || name.length === 0) {
    errors.push({
      code: "schema",
      path: `${path}.component`,
      message: 'each component needs its type name as a string, e.g. "component": "Text" (v0.9 flat format)',
    });
  }
  return errors;
}
