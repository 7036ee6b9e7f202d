/**
 * The run's side of generated UI: each surface's lifecycle, the render tool, UI actions, the client's
 * catalogs. Reaches the validator (which loads @a2ui/web_core) only by a dynamic import on the first
 * render call. This folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { A2UI_SCHEMA_CONTEXT_DESCRIPTION, clientCatalogs, describeCatalogIds, type ClientCatalog } from "./client-catalogs.ts";
export { renderA2uiTool } from "./render-tool.ts";
export { A2UI_ACTIVITY_TYPE, DEFAULT_MAX_ATTEMPTS, RENDER_A2UI, createSurfaceLifecycle, type SurfaceLifecycle } from "./surface-lifecycle.ts";
export { prepareUiAction, repeatedUiActionRun } from "./ui-action.ts";
