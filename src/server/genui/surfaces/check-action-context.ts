import { isDeepStrictEqual } from "node:util";
import { TetherError } from "../../../protocol/index.ts";
import { collectDataBindings } from "../data-bindings.ts";
import { isPlainObject } from "../is-plain-object.ts";
import type { RenderedSurface } from "./rendered-surface.ts";
import type { UserAction } from "./user-action.ts";

// The basic catalog's components a person types or picks into: what they bind, the page may change.
const INPUT_COMPONENTS = new Set(["TextField", "CheckBox", "ChoicePicker", "Slider", "DateTimeInput"]);
const MAX_DEPTH = 16;

/**
 * Checks a click's context against the action as the surface defined it,
 * so a page cannot make a button say what it never said: no key the action
 * does not define; a literal is the literal; a value bound to the surface's
 * data is that data, unless a component on the surface lets the person edit
 * it (then the page's value stands, "as the page reported it"). Refuses with
 * 400 `ui_action_invalid`, naming the key.
 */
export function checkActionContext(surface: RenderedSurface, component: Record<string, unknown>, action: UserAction): void {
  const defined = actionContextOf(component, action.name);
  if (!defined) return; // an action without a context definition: nothing to hold the page to
  const editable = editablePaths(surface.components);
  const refuse = (key: string, why: string): never => {
    throw new TetherError("ui_action_invalid", `The ${action.name} action on surface ${action.surfaceId} ${why} (context "${key}").`, {
      details: { surfaceId: action.surfaceId, sourceComponentId: action.sourceComponentId, name: action.name, key },
    });
  };
  for (const key of Object.keys(action.context)) {
    if (!Object.hasOwn(defined, key)) refuse(key, "defines no such context value");
  }
  for (const [key, definition] of Object.entries(defined)) {
    if (!Object.hasOwn(action.context, key)) continue; // unresolved on the page: nothing sent, nothing claimed
    const sent = action.context[key];
    const path = bindingPath(definition);
    if (path === undefined) {
      // A function call is evaluated on the page; anything else is a literal the surface fixed.
      if (!isFunctionCall(definition) && !isDeepStrictEqual(sent, definition)) refuse(key, "was sent a value its button does not carry");
      continue;
    }
    // A relative path reads a list item's scope, and an editable one what the person entered: the page's value stands.
    if (!path.startsWith("/") || editable.some((written) => overlaps(written, path))) continue;
    if (!isDeepStrictEqual(sent, readPointer(surface.data, path))) refuse(key, `was sent a value that is not the surface's ${path}`);
  }
}

/** The `context` of the component's action with this name, as the surface defined it. */
function actionContextOf(component: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const stack: Array<[unknown, number]> = [[component, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (!isPlainObject(current) || depth > MAX_DEPTH) continue;
    if (isPlainObject(current.event) && current.event.name === name) return isPlainObject(current.event.context) ? current.event.context : undefined;
    for (const child of Object.values(current)) {
      if (Array.isArray(child)) for (const item of child) stack.push([item, depth + 1]);
      else stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** Every absolute data path an input component on the surface binds. */
function editablePaths(components: unknown[]): string[] {
  return components.flatMap((component) =>
    isPlainObject(component) && typeof component.component === "string" && INPUT_COMPONENTS.has(component.component)
      ? collectDataBindings(component).map((binding) => binding.pointer)
      : [],
  );
}

function overlaps(a: string, b: string): boolean {
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(outer.endsWith("/") ? outer : `${outer}/`);
  return within(a, b) || within(b, a) || !a.startsWith("/");
}

function bindingPath(definition: unknown): string | undefined {
  return isPlainObject(definition) && Object.keys(definition).length === 1 && typeof definition.path === "string" ? definition.path : undefined;
}

function isFunctionCall(definition: unknown): boolean {
  return isPlainObject(definition) && typeof definition.call === "string";
}

/** RFC 6901 over plain data, own properties only. */
function readPointer(data: unknown, pointer: string): unknown {
  let current = data;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(current) && /^\d+$/.test(key)) current = current[Number(key)];
    else if (isPlainObject(current) && Object.hasOwn(current, key)) current = current[key];
    else return undefined;
  }
  return current;
}
