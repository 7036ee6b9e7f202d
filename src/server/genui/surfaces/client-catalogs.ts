import type { RunAgentInput } from "@ag-ui/core";
import { BASIC_CATALOG_ID, BASIC_CATALOG_IDS } from "../catalog-ids.ts";
import type { JsonSchemaLike } from "../catalog.ts";

/** The context entry `@ag-ui/a2ui-middleware` adds with the app's component catalog. */
export const A2UI_SCHEMA_CONTEXT_DESCRIPTION =
  "A2UI Component Schema \u2014 available components for generating UI surfaces. Use these component names and properties when creating A2UI operations.";

/** A catalog a client can render: inline (its components given), or the basic catalog under one of its names. */
export interface ClientCatalog {
  catalogId: string;
  /** Absent for the basic catalog, which the validator knows itself. */
  components?: Record<string, JsonSchemaLike>;
}

/**
 * The catalogs this client can render, which bound what may be generated:
 * an inline catalog in the middleware's context entry, the basic catalog when
 * `forwardedProps.a2uiClientCapabilities.supportedCatalogIds` names it (under
 * either of its ids), or the basic catalog when the client says nothing.
 */
export function clientCatalogs(input: Pick<RunAgentInput, "context" | "forwardedProps">): ClientCatalog[] {
  const catalogs: ClientCatalog[] = [];
  for (const entry of input.context ?? []) {
    if (entry.description !== A2UI_SCHEMA_CONTEXT_DESCRIPTION) continue;
    const inline = parseInlineCatalog(entry.value);
    if (inline) catalogs.push(inline);
  }
  const capabilities = (input.forwardedProps as { a2uiClientCapabilities?: { supportedCatalogIds?: unknown } } | undefined)?.a2uiClientCapabilities;
  const supported = Array.isArray(capabilities?.supportedCatalogIds)
    ? capabilities.supportedCatalogIds.filter((id): id is string => typeof id === "string")
    : undefined;
  for (const id of supported ?? []) {
    if (BASIC_CATALOG_IDS.has(id) && !catalogs.some((catalog) => catalog.catalogId === id)) catalogs.push({ catalogId: id });
  }
  // A client that names catalogs has said what it renders; one that says nothing gets the basic catalog.
  return catalogs.length > 0 || supported ? catalogs : [{ catalogId: BASIC_CATALOG_ID }];
}

/** The catalog ids a client named in `supportedCatalogIds`, for a log line: at most five, quoted. */
export function describeCatalogIds(input: Pick<RunAgentInput, "forwardedProps">): string {
  const ids = (input.forwardedProps as { a2uiClientCapabilities?: { supportedCatalogIds?: unknown } } | undefined)?.a2uiClientCapabilities?.supportedCatalogIds;
  const named = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
  return named.length === 0
    ? "none"
    : named
        .slice(0, 5)
        .map((id) => JSON.stringify(id.slice(0, 200)))
        .join(", ");
}

function parseInlineCatalog(value: string): ClientCatalog | undefined {
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
  // Only entries that are schemas: a null or a string here would describe no component.
  const components = Object.fromEntries(
    Object.entries(catalog.components).filter(([, schema]) => typeof schema === "object" && schema !== null && !Array.isArray(schema)),
  );
  return { catalogId: catalog.catalogId, components: components as Record<string, JsonSchemaLike> };
}
