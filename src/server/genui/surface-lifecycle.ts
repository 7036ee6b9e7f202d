import { EventType, type BaseEvent } from "@ag-ui/core";
import type { ClientCatalog } from "./client-catalogs.ts";
import type { SurfaceCatalog, SurfaceError, SurfaceValidation } from "./validate-surface.ts";

/** The render tool's name, as `@ag-ui/a2ui-middleware` calls it. */
export const RENDER_A2UI = "render_a2ui";
/** The activity type a surface travels under, as the middleware and CopilotKit's renderer expect. */
export const A2UI_ACTIVITY_TYPE = "a2ui-surface";
/** Attempts the model gets at one surface before it ends `failed`. */
export const DEFAULT_MAX_ATTEMPTS = 3;

// A building surface reports its progress at most every this many characters of arguments.
const PROGRESS_EVERY_CHARS = 512;

export interface SurfaceLifecycle {
  /** Watches the run's events: a render call starting is a surface building, its arguments its progress. */
  observe(event: BaseEvent): void;
  /** Validates a finished render call; returns the tool result the model reads. */
  settle(toolCallId: string, args: unknown): Promise<string>;
}

interface Surface {
  /** One activity position per surface, kept across retries: `a2ui-surface-<first call id>`. */
  messageId: string;
  /** Attempts made before this call. */
  attempts: number;
  characters: number;
  reported: number;
}

/**
 * The life of each generated surface in one run, on the wire as the
 * middleware has it: one ACTIVITY_SNAPSHOT position per surface carrying
 * `building` (with progress), then `retrying` with the errors, then the
 * validated operations or `failed`. Nothing that failed validation is ever
 * sent as operations; the model gets the errors, one line each, and tries again.
 */
export function createSurfaceLifecycle(options: { emit(event: BaseEvent): void; catalogs: ClientCatalog[]; maxAttempts?: number }): SurfaceLifecycle {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const byCall = new Map<string, Surface>();
  // A surface whose last attempt failed: the model's next render call is its next attempt, at the same position.
  let retrying: Surface | undefined;

  const publish = (surface: Surface, content: Record<string, unknown>) =>
    options.emit({ type: EventType.ACTIVITY_SNAPSHOT, messageId: surface.messageId, activityType: A2UI_ACTIVITY_TYPE, content, replace: true } as BaseEvent);

  return {
    observe(event) {
      if (event.type === EventType.TOOL_CALL_START) {
        const { toolCallId, toolCallName } = event as unknown as { toolCallId: string; toolCallName: string };
        if (toolCallName !== RENDER_A2UI) return;
        const surface: Surface = retrying
          ? { ...retrying, characters: 0, reported: 0 }
          : { messageId: `a2ui-surface-${toolCallId}`, attempts: 0, characters: 0, reported: 0 };
        retrying = undefined;
        byCall.set(toolCallId, surface);
        // A retry keeps showing "retrying" until its arguments are complete; a first attempt is building.
        if (surface.attempts === 0) publish(surface, { status: "building" });
      } else if (event.type === EventType.TOOL_CALL_ARGS) {
        const { toolCallId, delta } = event as unknown as { toolCallId: string; delta: string };
        const surface = byCall.get(toolCallId);
        if (!surface) return;
        surface.characters += delta.length;
        if (surface.attempts === 0 && surface.characters - surface.reported >= PROGRESS_EVERY_CHARS) {
          surface.reported = surface.characters;
          // The middleware's field: an estimate of the tokens streamed so far (about four characters each).
          publish(surface, { status: "building", progressTokens: Math.round(surface.characters / 4) });
        }
      }
    },

    async settle(toolCallId, args) {
      // Loaded on the first render call: the A2UI library costs a second at start-up that an agent without surfaces never pays.
      const { basicCatalog, formatSurfaceErrors, validateSurface } = await import("./validate-surface.ts");
      const catalogs: SurfaceCatalog[] = options.catalogs.map((catalog) =>
        catalog.components ? { catalogId: catalog.catalogId, components: catalog.components } : { ...basicCatalog(), catalogId: catalog.catalogId },
      );
      const surface = byCall.get(toolCallId) ?? { messageId: `a2ui-surface-${toolCallId}`, attempts: 0, characters: 0, reported: 0 };
      byCall.delete(toolCallId);
      const attempt = surface.attempts + 1;
      const validation: SurfaceValidation =
        catalogs.length > 0
          ? validateSurface(args, { catalogs })
          : {
              ok: false,
              errors: [
                { code: "outside_catalog", path: "catalogId", message: "this client declared no catalog Tether knows, so no surface can be shown to it" },
              ],
            };
      if (validation.ok) {
        publish(surface, { a2ui_operations: validation.operations });
        const surfaceId = (args as { surfaceId: string }).surfaceId;
        return JSON.stringify({ rendered: true, surfaceId, attempt, message: `Surface ${surfaceId} is on the person's screen.` });
      }
      const errors = validation.errors;
      if (attempt < maxAttempts) {
        retrying = { ...surface, attempts: attempt };
        publish(surface, { status: "retrying", attempt: attempt + 1, maxAttempts, errors: errorsForClient(errors) });
        return `${formatSurfaceErrors(errors)}\nFix these and call ${RENDER_A2UI} again (attempt ${attempt + 1} of ${maxAttempts}).`;
      }
      publish(surface, { status: "failed", error: `The surface did not pass validation in ${maxAttempts} attempts.`, attempts: attempt, maxAttempts });
      return `${formatSurfaceErrors(errors)}\nThat was the last of ${maxAttempts} attempts: the surface was not shown. Tell the person you could not show it, and give the answer in words.`;
    },
  };
}

function errorsForClient(errors: SurfaceError[]) {
  return errors.map(({ code, path, message }) => ({ code, path, message }));
}
