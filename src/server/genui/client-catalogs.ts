import type { RunAgentInput } from "@ag-ui/core";
import { BASIC_CATALOG_ID, basicCatalog, type SurfaceCatalog } from "./validate-surface.ts";

/** The context entry `@ag-ui/a2ui-middleware` adds with the app's component catalog. */
export const A2UI_SCHEMA_CONTEXT_DESCRIPTION =
  "A2UI Component Schema \u2014 available components for generating UI surfaces. Use these component names and properties when creating A2UI operations.";

/**
 * The catalogs this client can render, which bound what may be generated:
 * an inline catalog in the middleware's context entry, the catalog ids of
 * `forwardedProps.a2uiClientCapabilities.supportedCatalogIds` Tether knows
 * (the basic catalog), or the basic catalog when the client says nothing.
 */
export function clientCatalogs(input: Pick<RunAgentInput, "context" | "forwardedProps">): SurfaceCatalog[] {
  const catalogs: SurfaceCatalog[] = [];
  for (const entry of input.context ?? []) {
    if (entry.description !== A2UI_SCHEMA_CONTEXT_DESCRIPTION) continue;
    const inline = parseInlineCatalog(entry.value);
    if (inline) catalogs.push(inline);
  }
  const capabilities = (input.forwardedProps as { a2uiClientCapabilities?: { supportedCatalogIds?: unknown } } | undefined)?.a2uiClientCapabilities;
  const supported = Array.isArray(capabilities?.supportedCatalogIds) ? capabilities.supportedCatalogIds.filter((id) => typeof id === "string") : undefined;
  if (supported?.includes(BASIC_CATALOG_ID) && !catalogs.some((catalog) => catalog.catalogId === BASIC_CATALOG_ID)) catalogs.push(basicCatalog());
  // A client that names catalogs has said what it renders; one that says nothing gets the basic catalog.
  return catalogs.length > 0 || supported ? catalogs : [basicCatalog()];
}

function parseInlineCatalog(value: string): SurfaceCatalog | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  const catalog = parsed as { catalogId?: unknown; components?: unknown };
  if (typeof catalog.catalogId !== "string" || typeof catalog.components !== "object" || catalog.components === null || Array.isArray(catalog.components)) {
    return undefined;
  }
  return { catalogId: catalog.catalogId, components: catalog.components as SurfaceCatalog["components"] };
}
