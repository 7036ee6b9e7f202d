import { EventType, type ActivityMessage, type BaseEvent } from "@ag-ui/core";
import type { RecordSurfaceAttempt } from "../../../protocol/index.ts";
import type { ClientCatalog } from "./client-catalogs.ts";
import type { SurfaceCatalog, SurfaceError, SurfaceValidation } from "../validate-surface.ts";

/** The render tool's name, as `@ag-ui/a2ui-middleware` calls it. */
export const RENDER_A2UI = "render_a2ui";
/** The activity type a surface travels under, as the middleware and CopilotKit's renderer expect. */
export const A2UI_ACTIVITY_TYPE = "a2ui-surface";
/** Attempts the model gets at one surface before it ends `failed`. */
export const DEFAULT_MAX_ATTEMPTS = 3;

// A building surface reports its progress at most every this many characters of arguments.
const PROGRESS_EVERY_CHARS = 512;
// What a client is shown of the errors: the model gets them all (capped in its own text).
const ERRORS_SHOWN = 20;

export interface SurfaceLifecycle {
  /** Watches the run's events: a render call starting is a surface building, its arguments its progress. */
  observe(event: BaseEvent): void;
  /** Validates a finished render call; returns the tool result the model reads. */
  settle(toolCallId: string, args: unknown): Promise<string>;
  /**
   * The surfaces that reached their final state (operations, or `failed`) since
   * the last call, as the activity messages the thread keeps: the client holds
   * one at that id, and a reloaded page finds it in the stored thread. Each is
   * handed over once, in the order the surfaces first appeared.
   */
  takeFinished(): ActivityMessage[];
  /**
   * The run is ending: every surface still building or waiting for a retry ends
   * `failed`, never left spinning. Returns what `takeFinished` would: those, and
   * any other surface ended and not handed over yet.
   */
  finish(): ActivityMessage[];
}

/** A surface the model is still working on: its one activity position, and the attempts made. */
interface Surface {
  messageId: string;
  attempts: number;
}

/** A render call while its arguments stream. */
interface Building {
  /** Where it shows `building`; unset while it may be a retry of a surface already on screen. */
  messageId?: string;
  characters: number;
  reported: number;
}

/**
 * The life of each generated surface in one run, on the wire as the
 * middleware has it: one ACTIVITY_SNAPSHOT position per surface carrying
 * `building` (with progress), then `retrying` with the errors, then the
 * validated operations or `failed`. Nothing that failed validation is ever
 * sent as operations; the model gets the errors, one line each, and tries
 * again. A surface is known by its `surfaceId`, so two surfaces in one run
 * keep their own positions and their own attempts.
 */
export function createSurfaceLifecycle(options: {
  emit(event: BaseEvent): void;
  catalogs: ClientCatalog[];
  maxAttempts?: number;
  /** Told of each validation attempt and its verdict, for the run's record. */
  onAttempt?(attempt: RecordSurfaceAttempt): void;
}): SurfaceLifecycle {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const building = new Map<string, Building>();
  // Surfaces whose last attempt failed, by surfaceId: the model's next call for one is its next attempt.
  const retrying = new Map<string, Surface>();
  // Every position shown, by messageId, with what it last carried; kept in the order they first appeared.
  const shown = new Map<string, Record<string, unknown>>();
  // Positions whose last content is final and not handed over yet.
  const finished = new Set<string>();

  const publish = (messageId: string, content: Record<string, unknown>) => {
    shown.set(messageId, content);
    options.emit({ type: EventType.ACTIVITY_SNAPSHOT, messageId, activityType: A2UI_ACTIVITY_TYPE, content, replace: true } as BaseEvent);
  };
  const publishFinal = (messageId: string, content: Record<string, unknown>) => {
    publish(messageId, content);
    finished.add(messageId);
  };
  const takeFinished = (): ActivityMessage[] => {
    const messages: ActivityMessage[] = [];
    for (const [id, content] of shown) {
      if (!finished.has(id)) continue;
      messages.push({ id, role: "activity", activityType: A2UI_ACTIVITY_TYPE, content });
      // A final position changes no more: it needs no tracking after it is handed over.
      shown.delete(id);
    }
    finished.clear();
    return messages;
  };

  return {
    observe(event) {
      if (event.type === EventType.TOOL_CALL_START) {
        const { toolCallId, toolCallName } = event as unknown as { toolCallId: string; toolCallName: string };
        if (toolCallName !== RENDER_A2UI) return;
        // While a surface waits for a retry, a new call may be that retry: its position is decided once its surfaceId is known.
        const call: Building = { characters: 0, reported: 0 };
        if (retrying.size === 0) {
          call.messageId = `a2ui-surface-${toolCallId}`;
          publish(call.messageId, { status: "building" });
        }
        building.set(toolCallId, call);
      } else if (event.type === EventType.TOOL_CALL_ARGS) {
        const { toolCallId, delta } = event as unknown as { toolCallId: string; delta: string };
        const call = building.get(toolCallId);
        if (!call?.messageId) return;
        call.characters += delta.length;
        if (call.characters - call.reported >= PROGRESS_EVERY_CHARS) {
          call.reported = call.characters;
          // The middleware's field: an estimate of the tokens streamed so far (about four characters each).
          publish(call.messageId, { status: "building", progressTokens: Math.round(call.characters / 4) });
        }
      }
    },

    async settle(toolCallId, args) {
      // Loaded on the first render call: the A2UI library costs a second at start-up that an agent without surfaces never pays.
      const { basicCatalog, formatSurfaceErrors, validateSurface } = await import("../validate-surface.ts");
      const call = building.get(toolCallId);
      building.delete(toolCallId);
      const surfaceId = typeof (args as { surfaceId?: unknown } | undefined)?.surfaceId === "string" ? (args as { surfaceId: string }).surfaceId : "";
      const earlier = retrying.get(surfaceId);
      retrying.delete(surfaceId);
      const surface: Surface = earlier ?? { messageId: call?.messageId ?? `a2ui-surface-${toolCallId}`, attempts: 0 };
      // A call that showed `building` at its own position but turned out to be a retry: that position is taken back.
      // It was never a surface of its own, so the thread does not keep it.
      if (earlier && call?.messageId && call.messageId !== earlier.messageId) {
        publish(call.messageId, { status: "failed", error: "Merged into an earlier surface.", attempts: 0 });
        shown.delete(call.messageId);
      }
      const attempt = surface.attempts + 1;

      const catalogs: SurfaceCatalog[] = options.catalogs.map((catalog) =>
        catalog.components ? { catalogId: catalog.catalogId, components: catalog.components } : { ...basicCatalog(), catalogId: catalog.catalogId },
      );
      const validation: SurfaceValidation =
        catalogs.length > 0
          ? validateSurface(args, { catalogs })
          : {
              ok: false,
              errors: [
                { code: "outside_catalog", path: "catalogId", message: "this client declared no catalog Tether knows, so no surface can be shown to it" },
              ],
            };
      const attempted = { toolCallId, surfaceId, attempt, maxAttempts };
      if (validation.ok) {
        options.onAttempt?.({ ...attempted, verdict: "rendered", errors: [] });
        publishFinal(surface.messageId, { a2ui_operations: validation.operations });
        return JSON.stringify({ rendered: true, surfaceId, attempt, message: `Surface ${surfaceId} is on the person's screen.` });
      }
      const errors = validation.errors;
      const retry = attempt < maxAttempts && surfaceId !== "";
      options.onAttempt?.({ ...attempted, verdict: retry ? "retrying" : "failed", errors: errorsForClient(errors) });
      if (retry) {
        retrying.set(surfaceId, { messageId: surface.messageId, attempts: attempt });
        publish(surface.messageId, { status: "retrying", attempt: attempt + 1, maxAttempts, errors: errorsForClient(errors) });
        return `${formatSurfaceErrors(errors)}\nFix these and call ${RENDER_A2UI} again with surfaceId "${surfaceId}" (attempt ${attempt + 1} of ${maxAttempts}).`;
      }
      publishFinal(surface.messageId, {
        status: "failed",
        error: `The surface did not pass validation in ${attempt} attempt${attempt === 1 ? "" : "s"}.`,
        attempts: attempt,
        maxAttempts,
      });
      return `${formatSurfaceErrors(errors)}\nThe surface was not shown${attempt < maxAttempts ? " (without a surfaceId it cannot be retried)" : `: that was the last of ${maxAttempts} attempts`}. Tell the person you could not show it, and give the answer in words.`;
    },

    finish() {
      for (const call of building.values()) {
        if (call.messageId) publishFinal(call.messageId, { status: "failed", error: "The surface's arguments could not be read.", attempts: 1, maxAttempts });
      }
      for (const surface of retrying.values()) {
        publishFinal(surface.messageId, { status: "failed", error: "The model did not try again.", attempts: surface.attempts, maxAttempts });
      }
      building.clear();
      retrying.clear();
      return takeFinished();
    },

    takeFinished,
  };
}

function errorsForClient(errors: SurfaceError[]) {
  return errors.slice(0, ERRORS_SHOWN).map(({ code, path, message }) => ({ code, path, message: message.slice(0, 300) }));
}
