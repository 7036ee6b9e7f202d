import { DataModel } from "@a2ui/web_core/v0_9";
import { collectDataBindings, type DataBinding } from "./data-bindings.ts";
import { quote, type SurfaceError } from "./surface-error.ts";
import { ROOT_ID, type SurfaceGraph } from "./surface-graph.ts";

/** Template items checked per list: enough to catch a wrong field name, bounded for long lists. */
const MAX_TEMPLATE_ITEMS = 20;
// Nested templates multiply their items (20 × 20 × 20 …): past this many visits, relative paths go unchecked rather than hold the event loop.
const MAX_SCOPE_VISITS = 5_000;

/**
 * Every binding must resolve against `data`, read with `@a2ui/web_core`'s
 * own DataModel so paths mean what they mean in the renderer.
 *
 * Scopes follow the renderer: the tree is walked from root with the data
 * context `/`; a `children: {componentId, path}` template points at a list,
 * and its component (and that component's subtree) is checked once per list
 * item (the first {@link MAX_TEMPLATE_ITEMS}), where a relative path like
 * `name` means `/items/<n>/name`. Absolute paths are checked everywhere; an
 * empty list leaves its relative paths unchecked, as nothing renders them.
 * Components root does not reach get their absolute paths checked only (their
 * scope is unknown; they are reported as unreachable anyway).
 */
export function checkBindings(graph: SurfaceGraph, data: Record<string, unknown> | undefined): SurfaceError[] {
  const model = new DataModel(data ?? {});
  const bindings = graph.components.map((component) => collectDataBindings(component));
  const reported = new Set<string>();
  const found: { index: number; error: SurfaceError }[] = [];
  const report = (index: number, at: string, message: string): void => {
    const path = `components[${index}].${at}`;
    if (reported.has(path)) return;
    reported.add(path);
    found.push({ index, error: { code: "binding", path, message } });
  };

  const absoluteChecked = new Set<number>();
  const checkAbsolute = (index: number): void => {
    if (absoluteChecked.has(index)) return;
    absoluteChecked.add(index);
    for (const binding of bindings[index] ?? []) {
      if (isAbsolute(binding.pointer) && !resolves(model, binding.pointer)) {
        report(index, binding.path, `${quote(binding.pointer)} does not resolve in data${data === undefined ? " (no data was given)" : ""}`);
      }
    }
  };

  const visited = new Set<string>();
  const visit = (index: number, base: string | undefined, ancestors: Set<number>): void => {
    // An undefined base is a template over an empty list: nothing is rendered with a scope.
    const key = `${index}|${base ?? ""}`;
    if (visited.has(key) || ancestors.has(index) || visited.size >= MAX_SCOPE_VISITS) return;
    visited.add(key);
    checkAbsolute(index);
    if (base !== undefined) {
      for (const binding of bindings[index] ?? []) checkRelative(index, binding, base);
    }
    const inside = new Set(ancestors).add(index);
    for (const ref of graph.refs[index] ?? []) {
      const target = graph.indexById.get(ref.id);
      if (target === undefined) continue;
      if (ref.templatePath === undefined) {
        visit(target, base, inside);
        continue;
      }
      for (const itemBase of templateItems(index, ref.path.replace(/\.componentId$/, ".path"), ref.templatePath, base)) visit(target, itemBase, inside);
    }
  };

  const checkRelative = (index: number, binding: DataBinding, base: string): void => {
    if (isAbsolute(binding.pointer)) return;
    const pointer = resolvePath(binding.pointer, base);
    if (!resolves(model, pointer)) report(index, binding.path, `${quote(binding.pointer)} does not resolve at ${quote(pointer)} (relative to ${quote(base)})`);
  };

  const templateItems = (index: number, at: string, listPath: string, base: string | undefined): (string | undefined)[] => {
    if (base === undefined && !isAbsolute(listPath)) return [undefined];
    const pointer = resolvePath(listPath, base ?? "/");
    const list = read(model, pointer);
    if (!Array.isArray(list)) {
      report(index, at, `${quote(listPath)} must point to a list in data, found ${list === undefined ? "nothing" : typeof list} at ${quote(pointer)}`);
      return [undefined];
    }
    if (list.length === 0) return [undefined];
    return list.slice(0, MAX_TEMPLATE_ITEMS).map((_, item) => resolvePath(String(item), pointer));
  };

  const root = graph.indexById.get(ROOT_ID);
  if (root !== undefined) visit(root, "/", new Set());
  graph.components.forEach((_, index) => checkAbsolute(index));
  // The walk meets components in tree order; report them in list order like every other check.
  return found.sort((a, b) => a.index - b.index).map(({ error }) => error);
}

function isAbsolute(pointer: string): boolean {
  return pointer.startsWith("/");
}

/** The renderer's rule (DataContext.resolvePath): relative paths extend the context path. */
function resolvePath(pointer: string, base: string): string {
  if (isAbsolute(pointer)) return pointer;
  if (pointer === "" || pointer === ".") return base;
  const prefix = base === "/" ? "" : base.replace(/\/$/, "");
  return `${prefix}/${pointer}`;
}

function read(model: DataModel, pointer: string): unknown {
  try {
    return model.get(pointer);
  } catch {
    // DataModel refuses `__proto__` and friends; such a path resolves to nothing.
    return undefined;
  }
}

function resolves(model: DataModel, pointer: string): boolean {
  return read(model, pointer) !== undefined;
}
