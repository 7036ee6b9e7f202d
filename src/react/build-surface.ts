import { basicCatalog } from "@a2ui/react/v0_9";
import { Catalog, MessageProcessor, type A2uiMessage, type SurfaceModel } from "@a2ui/web_core/v0_9";
import type { SurfaceAction } from "../client/index.ts";

/**
 * The id `@ag-ui/a2ui-middleware` and CopilotKit give the v0.9 basic catalog.
 * The server accepts it as the basic catalog when a client declares it
 * (server/genui/catalog-ids.ts), so a surface can arrive created under it.
 */
export const MIDDLEWARE_BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/basic_catalog.json";

// The same components under the middleware's name: without it the processor refuses such a surface ("Catalog not found").
const middlewareBasicCatalog = new Catalog(
  MIDDLEWARE_BASIC_CATALOG_ID,
  [...basicCatalog.components.values()],
  [...basicCatalog.functions.values()],
  basicCatalog.themeSchema,
);

type ReactComponentApi = typeof basicCatalog extends Catalog<infer T> ? T : never;

export type BuiltSurface =
  | { processor: MessageProcessor<ReactComponentApi>; surface: SurfaceModel<ReactComponentApi>; error?: undefined }
  | { processor: MessageProcessor<ReactComponentApi>; surface?: undefined; error: { code: string; message: string } };

/**
 * Runs a surface's validated operations through `@a2ui/web_core`'s message
 * processor with the basic catalog (under either of its ids): the surface
 * model to draw, or why the processor refused it. Clicks go to `onAction`.
 */
export function buildSurface(surfaceId: string, operations: Array<Record<string, unknown>>, onAction: (action: SurfaceAction) => void): BuiltSurface {
  const processor = new MessageProcessor([basicCatalog, middlewareBasicCatalog], (action) => onAction(action as SurfaceAction));
  try {
    processor.processMessages(operations as unknown as A2uiMessage[]);
  } catch (error) {
    return { processor, error: { code: "RENDERER_REFUSED", message: error instanceof Error ? error.message : String(error) } };
  }
  const surface = processor.model.getSurface(surfaceId);
  if (!surface) return { processor, error: { code: "SURFACE_MISSING", message: `The operations never created surface ${surfaceId}.` } };
  return { processor, surface };
}
