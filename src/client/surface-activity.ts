import type { Message } from "@ag-ui/core";

/** The activity type a generated surface travels under (the A2UI middleware's and CopilotKit's). */
export const SURFACE_ACTIVITY_TYPE = "a2ui-surface";
/** A surface's activity message id is this and the render call's id. */
export const SURFACE_MESSAGE_PREFIX = "a2ui-surface-";
/** The tool call a click on a surface is recorded as in the history (the middleware's name). */
export const SURFACE_ACTION_TOOL = "log_a2ui_event";

export interface SurfaceIssue {
  code: string;
  path: string;
  message: string;
}

/** Where a generated surface is, read from its activity message. */
export type SurfaceActivity =
  | { status: "building"; progressTokens?: number }
  | { status: "retrying"; attempt: number; maxAttempts: number; errors: SurfaceIssue[] }
  | { status: "failed"; error: string }
  /** Validated A2UI v0.9 operations, ready for a renderer. */
  | { status: "ready"; surfaceId: string; operations: Array<Record<string, unknown>> };

/**
 * Reads an `a2ui-surface` activity message; undefined for any other message.
 * Content this page cannot read is a failure it shows, not a blank.
 */
export function readSurfaceActivity(message: Message): SurfaceActivity | undefined {
  if (message.role !== "activity" || message.activityType !== SURFACE_ACTIVITY_TYPE) return undefined;
  const content = message.content as Record<string, unknown> | undefined;
  if (!content || typeof content !== "object") return { status: "failed", error: "The view arrived empty." };
  if (Array.isArray(content.a2ui_operations)) {
    const operations = content.a2ui_operations.filter((operation): operation is Record<string, unknown> => isObject(operation));
    const surfaceId = operations.map(surfaceIdOf).find((id) => id !== undefined);
    if (!surfaceId) return { status: "failed", error: "The view names no surface." };
    return { status: "ready", surfaceId, operations };
  }
  switch (content.status) {
    case "building":
      return { status: "building", ...(typeof content.progressTokens === "number" ? { progressTokens: content.progressTokens } : {}) };
    case "retrying":
      return {
        status: "retrying",
        attempt: typeof content.attempt === "number" ? content.attempt : 2,
        maxAttempts: typeof content.maxAttempts === "number" ? content.maxAttempts : 3,
        errors: Array.isArray(content.errors) ? content.errors.filter(isIssue) : [],
      };
    case "failed":
      return { status: "failed", error: typeof content.error === "string" ? content.error : "The view could not be made." };
    default:
      return { status: "failed", error: "The view arrived in a form this page cannot read." };
  }
}

/**
 * A click as the history records it (an assistant message whose only calls
 * are `log_a2ui_event`), told in the page's words: the label of the button
 * pressed when the surface is still in `messages`, else the action's name.
 */
export function describeSurfaceClick(message: Message, messages: Message[]): string | undefined {
  if (message.role !== "assistant" || message.content || !message.toolCalls?.length) return undefined;
  if (!message.toolCalls.every((call) => call.function.name === SURFACE_ACTION_TOOL)) return undefined;
  const labels = message.toolCalls.map((call) => {
    const action = parseObject(call.function.arguments);
    const name = typeof action?.name === "string" ? action.name : "an action";
    const label =
      typeof action?.surfaceId === "string" && typeof action.sourceComponentId === "string"
        ? buttonLabel(messages, action.surfaceId, action.sourceComponentId)
        : undefined;
    return label ?? name;
  });
  return labels.join(", ");
}

/** The text a button shows: the Text component that is its child, in the latest rendering of its surface. */
function buttonLabel(messages: Message[], surfaceId: string, componentId: string): string | undefined {
  for (const message of [...messages].reverse()) {
    const activity = readSurfaceActivity(message);
    if (activity?.status !== "ready" || activity.surfaceId !== surfaceId) continue;
    const components = activity.operations.flatMap((operation) => {
      const update = operation.updateComponents as { components?: unknown } | undefined;
      return Array.isArray(update?.components) ? update.components.filter(isObject) : [];
    });
    const byId = new Map(components.map((component) => [component.id, component]));
    const child = byId.get(byId.get(componentId)?.child);
    return typeof child?.text === "string" ? child.text : undefined;
  }
  return undefined;
}

function surfaceIdOf(operation: Record<string, unknown>): string | undefined {
  for (const key of ["createSurface", "updateComponents", "updateDataModel", "deleteSurface"]) {
    const body = operation[key] as { surfaceId?: unknown } | undefined;
    if (typeof body?.surfaceId === "string") return body.surfaceId;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isIssue(value: unknown): value is SurfaceIssue {
  return isObject(value) && typeof value.code === "string" && typeof value.path === "string" && typeof value.message === "string";
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
