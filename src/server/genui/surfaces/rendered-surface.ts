import type { Message } from "@ag-ui/core";
import { isPlainObject } from "../is-plain-object.ts";
import { RENDER_A2UI } from "./surface-lifecycle.ts";

/** A surface the thread shows: the render call that passed validation, and its result. */
export interface RenderedSurface {
  surfaceId: string;
  toolCallId: string;
  /** The id of the tool message that says the surface was rendered (its run produced the surface). */
  resultMessageId: string;
  /** The components as the render call passed them. */
  components: unknown[];
  /** The data model the surface was rendered with. */
  data: unknown;
}

// Deeper than any component's properties go; an action sits one or two levels down.
const MAX_PROPERTY_DEPTH = 16;

/**
 * The last rendering of `surfaceId` in a history: an assistant `render_a2ui`
 * call with that surface id whose tool result says `rendered: true`. A call
 * that failed validation never showed anything, so it does not count; a
 * surface rendered again is the later one, which replaced it on the screen.
 */
export function findRenderedSurface(history: Message[], surfaceId: string): RenderedSurface | undefined {
  const calls = new Map<string, unknown>();
  let found: RenderedSurface | undefined;
  for (const message of history) {
    if (message.role === "assistant") {
      for (const call of message.toolCalls ?? []) if (call.function.name === RENDER_A2UI) calls.set(call.id, parseJson(call.function.arguments));
    } else if (message.role === "tool" && calls.has(message.toolCallId)) {
      const args = calls.get(message.toolCallId);
      const result = parseJson(message.content);
      if (!isPlainObject(args) || args.surfaceId !== surfaceId || !Array.isArray(args.components)) continue;
      if (!isPlainObject(result) || result.rendered !== true || result.surfaceId !== surfaceId) continue;
      found = { surfaceId, toolCallId: message.toolCallId, resultMessageId: message.id, components: args.components, data: args.data };
    }
  }
  return found;
}

/** The component of a surface with this id, or undefined. */
export function findComponent(surface: RenderedSurface, componentId: string): Record<string, unknown> | undefined {
  return surface.components.find((component): component is Record<string, unknown> => isPlainObject(component) && component.id === componentId);
}

/**
 * The names of the actions a component carries: every `{ event: { name } }`
 * among its properties (a Button's `action`, or wherever a catalog puts one).
 */
export function actionNamesOf(component: Record<string, unknown>): Set<string> {
  const names = new Set<string>();
  const stack: Array<[unknown, number]> = [[component, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null || depth > MAX_PROPERTY_DEPTH) continue;
    if (isPlainObject(current) && isPlainObject(current.event) && typeof current.event.name === "string") names.add(current.event.name);
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return names;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
