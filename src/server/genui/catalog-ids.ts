/**
 * The v0.9 basic catalog's id as `@a2ui/web_core` and `@a2ui/react` register
 * it (a test holds it to the library's own). Written out here so that reading
 * a client's catalogs does not load the renderer library.
 */
export const BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/** The id `@ag-ui/a2ui-middleware` and CopilotKit give the same basic catalog. */
export const MIDDLEWARE_BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/basic_catalog.json";

/** Either name of the basic catalog. */
export const BASIC_CATALOG_IDS: ReadonlySet<string> = new Set([BASIC_CATALOG_ID, MIDDLEWARE_BASIC_CATALOG_ID]);
