import { basicCatalog as webCoreBasicCatalog } from "@a2ui/web_core/v0_9/basic_catalog";
import { formatIssuePath } from "./a2ui-operations.ts";
import type { SurfaceCatalog } from "./catalog.ts";
import { BASIC_CATALOG_IDS } from "./catalog-ids.ts";
import type { ComponentSchema } from "./component-schema.ts";
import type { ComponentEntry } from "./render-a2ui-args.ts";
import { quote, type SurfaceError } from "./surface-error.ts";

/** The catalog a surface uses, and what validation knows besides it. */
export interface CatalogChoice {
  chosen: SurfaceCatalog;
  /** The chosen catalog's components, read once. */
  schemas: Map<string, ComponentSchema>;
  /** Every catalog a name may come from: the client's and the basic one. */
  known: SurfaceCatalog[];
}

/**
 * Each component's type must be in the surface's catalog: `outside_catalog`
 * when another known catalog has it (the client cannot render it here),
 * `unknown_component` when none does.
 */
export function checkMembership(components: ComponentEntry[], choice: CatalogChoice): SurfaceError[] {
  const errors: SurfaceError[] = [];
  components.forEach(({ component: name }, index) => {
    if (choice.schemas.has(name)) return;
    const path = `components[${index}].component`;
    const elsewhere = choice.known.find((catalog) => Object.hasOwn(catalog.components, name));
    errors.push(
      elsewhere
        ? {
            code: "outside_catalog",
            path,
            message: `${quote(name)} is in ${quote(elsewhere.catalogId)} but not in the client's catalog ${quote(choice.chosen.catalogId)}`,
          }
        : {
            code: "unknown_component",
            path,
            message: `${quote(name)} is not a component of any known catalog; use one of: ${someOf([...choice.schemas.keys()])}`,
          },
    );
  });
  return errors;
}

/**
 * Required properties per the catalog's schema, then, for the basic catalog,
 * every property against `@a2ui/web_core`'s own zod schema: the renderer
 * runs exactly that check and throws away the whole update on one failure,
 * so an unknown property (`tabItems` for `tabs`) must be caught here.
 */
export function checkProperties(components: ComponentEntry[], choice: CatalogChoice): SurfaceError[] {
  const errors: SurfaceError[] = [];
  components.forEach((component, index) => {
    const schema = choice.schemas.get(component.component);
    if (!schema) return;
    const missing = schema.required.filter((name) => !Object.hasOwn(component, name) || component[name] === undefined);
    for (const name of missing) {
      errors.push({
        code: "missing_property",
        path: `components[${index}].${name}`,
        message: `${quote(component.component)} requires the property ${quote(name)}`,
      });
    }
    if (BASIC_CATALOG_IDS.has(choice.chosen.catalogId)) errors.push(...checkBasicProperties(component, index, missing));
  });
  return errors;
}

function checkBasicProperties(component: ComponentEntry, index: number, missing: string[]): SurfaceError[] {
  const api = webCoreBasicCatalog.components.get(component.component);
  if (!api) return [];
  const { id: _id, component: _name, ...properties } = component;
  const result = api.schema.safeParse(properties);
  if (result.success) return [];
  return result.error.issues
    .filter((issue) => !(issue.path.length === 1 && missing.includes(String(issue.path[0]))))
    .map((issue) => ({ code: "schema", path: `components[${index}]${formatIssuePath(issue.path)}`, message: issue.message }));
}

/** A list for an error message: a client's catalog may name thousands of components, and every error would repeat them. */
function someOf(names: string[], shown = 30): string {
  return names.length <= shown ? names.join(", ") : `${names.slice(0, shown).join(", ")} …and ${names.length - shown} more`;
}
