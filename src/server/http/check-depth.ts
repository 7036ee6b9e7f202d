import { TetherError } from "../../protocol/index.ts";

/** Deeper than any honest request needs, and far below what would overflow the stack when stored. */
export const MAX_JSON_DEPTH = 64;

/** Refuses JSON nested deeper than `max` (400 `invalid_input`), walking it without recursion. */
export function checkDepth(value: unknown, what: string, max = MAX_JSON_DEPTH): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth > max) throw new TetherError("invalid_input", `${what} is nested more than ${max} levels deep.`);
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
}
