import { quote, type SurfaceError } from "./surface-error.ts";
import { ROOT_ID, type SurfaceGraph } from "./surface-graph.ts";

/**
 * One root, unique ids, every reference resolved, no cycles, and nothing
 * outside the tree. The root is the component with id `root` (the v0.9
 * convention the renderer starts from). A component root does not reach is
 * reported as `root`: the renderer would never show it, which is always a
 * mistake in a surface sent whole (a forgotten child link, a second tree).
 */
export function checkReferences(graph: SurfaceGraph): SurfaceError[] {
  return [...checkIds(graph), ...checkChildrenExist(graph), ...checkCycles(graph), ...checkReachable(graph)];
}

function checkIds({ components, indexById }: SurfaceGraph): SurfaceError[] {
  const errors: SurfaceError[] = [];
  components.forEach(({ id }, index) => {
    const first = indexById.get(id);
    if (first === undefined || first === index) return;
    errors.push(
      id === ROOT_ID
        ? {
            code: "root",
            path: `components[${index}].id`,
            message: `components[${first}] is already the root; a surface has exactly one component with id 'root'`,
          }
        : { code: "duplicate_id", path: `components[${index}].id`, message: `the id ${quote(id)} is already used by components[${first}]` },
    );
  });
  if (!indexById.has(ROOT_ID)) {
    errors.push({ code: "root", path: "components", message: "no component has id 'root'; the renderer starts from the component with id 'root'" });
  }
  return errors;
}

function checkChildrenExist({ refs, indexById }: SurfaceGraph): SurfaceError[] {
  const errors: SurfaceError[] = [];
  refs.forEach((componentRefs, index) => {
    for (const ref of componentRefs) {
      if (!indexById.has(ref.id)) {
        errors.push({ code: "missing_child", path: `components[${index}].${ref.path}`, message: `${quote(ref.id)} is not the id of any component` });
      }
    }
  });
  return errors;
}

function checkCycles({ components, refs, indexById }: SurfaceGraph): SurfaceError[] {
  const errors: SurfaceError[] = [];
  const reported = new Set<string>();
  const state = new Map<number, "open" | "done">();
  const stack: number[] = [];

  const visit = (index: number): void => {
    state.set(index, "open");
    stack.push(index);
    for (const ref of refs[index] ?? []) {
      const target = indexById.get(ref.id);
      if (target === undefined) continue;
      if (state.get(target) === "open") {
        const cycle = stack.slice(stack.indexOf(target));
        // One report per cycle, at its first component in list order, whichever member the walk entered by.
        const start = cycle.indexOf(Math.min(...cycle));
        const ordered = [...cycle.slice(start), ...cycle.slice(0, start)];
        const key = ordered.join(",");
        if (reported.has(key)) continue;
        reported.add(key);
        const first = ordered[0] as number;
        const next = ordered[1 % ordered.length] as number;
        const edge = (refs[first] ?? []).find((candidate) => indexById.get(candidate.id) === next);
        const names = [...ordered, first].map((member) => quote(components[member]?.id)).join(" → ");
        errors.push({ code: "cycle", path: `components[${first}].${edge?.path ?? ""}`, message: `${names}: a component cannot contain itself` });
      } else if (!state.has(target)) {
        visit(target);
      }
    }
    stack.pop();
    state.set(index, "done");
  };

  components.forEach((_, index) => {
    if (!state.has(index)) visit(index);
  });
  return errors;
}

function checkReachable({ components, refs, indexById }: SurfaceGraph): SurfaceError[] {
  const root = indexById.get(ROOT_ID);
  if (root === undefined) return [];
  const reached = new Set<number>([root]);
  const queue = [root];
  for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
    for (const ref of refs[index] ?? []) {
      const target = indexById.get(ref.id);
      if (target !== undefined && !reached.has(target)) {
        reached.add(target);
        queue.push(target);
      }
    }
  }
  const errors: SurfaceError[] = [];
  components.forEach(({ id }, index) => {
    // Duplicates are reported as such; only the first holder of an id can be reached.
    if (reached.has(index) || indexById.get(id) !== index) return;
    errors.push({
      code: "root",
      path: `components[${index}]`,
      message: `${quote(id)} is not reachable from 'root'; every component must be a descendant of root`,
    });
  });
  return errors;
}
