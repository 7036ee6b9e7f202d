/**
 * `@tether-agent/tether/genui`: the A2UI v0.9 surface validator on its own. Apart from
 * `@tether-agent/tether/server` because it loads `@a2ui/web_core` (about a second), which
 * an app that only runs agents never needs at start-up.
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
