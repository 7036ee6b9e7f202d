import { extractRefFields } from "@a2ui/web_core/v0_9";
import { basicCatalog as webCoreBasicCatalog } from "@a2ui/web_core/v0_9/basic_catalog";
import { buildOperations, checkOperationSchemas, type A2uiOperation } from "./a2ui-operations.ts";
import { basicCatalog, type SurfaceCatalog } from "./catalog.ts";
import { checkBindings } from "./check-bindings.ts";
import { checkMembership, checkProperties, type CatalogChoice } from "./check-components.ts";
import { checkReferences } from "./check-references.ts";
import { CONVENTIONAL_REF_FIELDS, readComponentSchema, type ComponentSchema, type RefKind } from "./component-schema.ts";
import { checkArgsShape, type ComponentEntry } from "./render-a2ui-args.ts";
import { quote, type SurfaceError } from "./surface-error.ts";
import { buildSurfaceGraph } from "./surface-graph.ts";

export { BASIC_CATALOG_ID, basicCatalog, type JsonSchemaLike, type SurfaceCatalog } from "./catalog.ts";
export type { A2uiOperation } from "./a2ui-operations.ts";
export { formatSurfaceErrors } from "./format-surface-errors.ts";
export type { RenderA2uiArgs } from "./render-a2ui-args.ts";
export type { SurfaceError, SurfaceErrorCode } from "./surface-error.ts";

export type SurfaceValidation = { ok: true; operations: A2uiOperation[] } | { ok: false; errors: SurfaceError[] };

export interface ValidateSurfaceOptions {
  /** The catalogs the client declared, first is the default; the basic catalog when none. */
  catalogs?: SurfaceCatalog[];
}

/**
 * Checks a `render_a2ui` call and, when it holds, returns the A2UI v0.9
 * operations for it: `createSurface`, `updateComponents`, and
 * `updateDataModel` at `/` when `data` is given. Pure: no I/O, no clock.
 *
 * Checks run in order and every error is collected, except that a wrong
 * outline (step 1) stops there, since nothing after it could read the call:
 * 1. the outline of the arguments (`schema`);
 * 2. the built operations against `@a2ui/web_core`'s v0.9 message schemas (`schema`);
 * 3. `catalogId` is one the client declared (`outside_catalog`);
 * 4. references: one `root`, unique ids, children exist, no cycles, all reachable;
 * 5. each component type is in the catalog (`unknown_component`, `outside_catalog`);
 * 6. required properties (`missing_property`), and for the basic catalog every
 *    property against the renderer's own zod schema (`schema`);
 * 7. every `{path}` binding resolves against `data` (`binding`).
 *
 * @example
 * const result = validateSurface(toolCall.args, { catalogs: [basicCatalog()] });
 * if (!result.ok) return formatSurfaceErrors(result.errors); // the tool result the model retries from
 */
export function validateSurface(input: unknown, options: ValidateSurfaceOptions = {}): SurfaceValidation {
  const shape = checkArgsShape(input);
  if (!shape.ok) return { ok: false, errors: shape.errors };
  const { args, components } = shape;

  const catalogs = options.catalogs && options.catalogs.length > 0 ? options.catalogs : [basicCatalog()];
  const declared = args.catalogId === undefined ? undefined : catalogs.find((catalog) => catalog.catalogId === args.catalogId);
  // An undeclared catalogId is reported, and the rest is still checked against the default catalog.
  const chosen = declared ?? (catalogs[0] as SurfaceCatalog);
  const operations = buildOperations(args, chosen.catalogId);

  const errors: SurfaceError[] = [...checkOperationSchemas(operations)];
  if (args.catalogId !== undefined && !declared) {
    errors.push({
      code: "outside_catalog",
      path: "catalogId",
      message: `${quote(args.catalogId)} is not a catalog the client declared; use one of: ${catalogs
        .slice(0, 10)
        .map((catalog) => catalog.catalogId)
        .join(", ")}`,
    });
  }

  const choice = chooseCatalog(chosen, catalogs);
  const graph = buildSurfaceGraph(components, (component) => refFieldsOf(component, choice.schemas));
  errors.push(...checkReferences(graph), ...checkMembership(components, choice), ...checkProperties(components, choice), ...checkBindings(graph, args.data));

  return errors.length === 0 ? { ok: true, operations } : { ok: false, errors };
}

function chooseCatalog(chosen: SurfaceCatalog, declared: SurfaceCatalog[]): CatalogChoice {
  const schemas = new Map<string, ComponentSchema>();
  for (const [name, schema] of Object.entries(chosen.components)) schemas.set(name, readComponentSchema(schema));
  // Only the basic catalog's names are needed to tell "outside the client's catalog" from "unknown".
  const basicNames: SurfaceCatalog = {
    catalogId: webCoreBasicCatalog.id,
    components: Object.fromEntries([...webCoreBasicCatalog.components.keys()].map((name) => [name, {}])),
  };
  return { chosen, schemas, known: [...declared, basicNames] };
}

/**
 * Where a component's child ids are: from its catalog schema; for a basic
 * component the client's catalog lacks, from the library's zod schema (so its
 * children are still followed); otherwise `child`/`children` by convention.
 */
function refFieldsOf(component: ComponentEntry, schemas: Map<string, ComponentSchema>): ReadonlyMap<string, RefKind> {
  const schema = schemas.get(component.component);
  if (schema) return schema.refFields;
  const api = webCoreBasicCatalog.components.get(component.component);
  if (!api) return CONVENTIONAL_REF_FIELDS;
  const fields = new Map<string, RefKind>();
  for (const [name, kind] of extractRefFields(api.schema))
    fields.set(name, kind.kind === "nested" ? { kind: "nested", keys: [...kind.keys] } : { kind: kind.kind });
  return fields;
}
