/**
 * `@tether-agent/tether/genui`: generated UI (A2UI v0.9). The surface
 * validator, and the names a client, a middleware or an app matches surfaces
 * by. Apart from `@tether-agent/tether/server` because the validator loads
 * `@a2ui/web_core` (about a second), which an app that only runs agents never
 * needs at start-up: the run reaches it by a dynamic import on its first
 * render call, and the server's folders enter genui through
 * `genui/surfaces/index.ts`, which does not load it.
 *
 * @module
 */
export {
  BASIC_CATALOG_ID,
  basicCatalog,
  formatSurfaceErrors,
  validateSurface,
  type A2uiOperation,
  type JsonSchemaLike,
  type RenderA2uiArgs,
  type SurfaceCatalog,
  type SurfaceError,
  type SurfaceErrorCode,
  type SurfaceValidation,
  type ValidateSurfaceOptions,
} from "./validate-surface.ts";
export { MIDDLEWARE_BASIC_CATALOG_ID } from "./catalog-ids.ts";
export { A2UI_ACTIVITY_TYPE, A2UI_SCHEMA_CONTEXT_DESCRIPTION, RENDER_A2UI, type ClientCatalog } from "./surfaces/index.ts";
