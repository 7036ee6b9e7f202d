import { describe, expect, it } from "vitest";
import { catchTetherError } from "../../../testing/index.ts";
import { MAX_ACTION_CONTEXT_DEPTH, readUserAction } from "./user-action.ts";

const CLICK = {
  name: "open_detail",
  surfaceId: "request-R-1042",
  sourceComponentId: "open",
  context: { requestId: "R-1042" },
  timestamp: "2025-06-01T10:00:00Z",
};

describe("readUserAction", () => {
  it("reads the middleware's forwardedProps.a2uiAction.userAction", () => {
    expect(readUserAction({ a2uiAction: { userAction: CLICK } })).toEqual(CLICK);
  });

  it("gives a click without context an empty one", () => {
    const { context: _context, ...bare } = CLICK;
    expect(readUserAction({ a2uiAction: { userAction: bare } })?.context).toEqual({});
  });

  it("finds no action where there is none", () => {
    expect(readUserAction(undefined)).toBeUndefined();
    expect(readUserAction({ tether: { trigger: { kind: "user-message" } } })).toBeUndefined();
  });

  it("refuses an action that is not well formed, naming the field", () => {
    const nest = (depth: number): unknown => (depth === 0 ? 1 : { next: nest(depth - 1) });
    const cases: Array<[unknown, string]> = [
      [{ a2uiAction: {} }, "userAction"],
      [{ a2uiAction: { userAction: { ...CLICK, timestamp: undefined } } }, "timestamp"],
      [{ a2uiAction: { userAction: { ...CLICK, sourceComponentId: "" } } }, "sourceComponentId"],
      [{ a2uiAction: { userAction: { ...CLICK, name: "n".repeat(129) } } }, "name"],
      [{ a2uiAction: { userAction: { ...CLICK, context: nest(MAX_ACTION_CONTEXT_DEPTH + 1) } } }, "nests more than"],
      [{ a2uiAction: { userAction: { ...CLICK, dataContextPath: "/x" } } }, "dataContextPath"],
    ];
    for (const [props, named] of cases) {
      const error = catchTetherError(() => readUserAction(props));
      expect(error.code).toBe("ui_action_invalid");
      expect(error.message).toContain(named);
    }
    // The deepest context allowed still passes.
    expect(readUserAction({ a2uiAction: { userAction: { ...CLICK, context: nest(MAX_ACTION_CONTEXT_DEPTH) } } })).toBeDefined();
  });
});
