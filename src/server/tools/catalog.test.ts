import { describe, expect, it } from "vitest";
import { KIM, LEE } from "../../../test/fixtures/messages.ts";
import type { ToolContext } from "./define-tool.ts";
import { loadToolCatalog, type ToolDeclaration } from "./catalog.ts";
import { catchTetherError } from "../../testing/index.ts";
import { createRunState } from "../state/index.ts";

const declarations: ToolDeclaration[] = [
  {
    name: "findScreen",
    description: "Finds a screen of the work-management app by name.",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    executor: "screens.find",
  },
  {
    name: "closeWorkRequest",
    description: "Closes a work request.",
    parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
    executor: "workRequests.close",
    visibleToRoles: ["manager"],
  },
];

const context: ToolContext = {
  user: KIM,
  threadId: "t1",
  runId: "r1",
  toolCallId: "call_1",
  signal: new AbortController().signal,
  state: createRunState({ initial: {}, emit: () => {} }),
};

describe("loadToolCatalog", () => {
  it("binds each declaration to the executor named by its key", () => {
    const tools = loadToolCatalog(declarations, {
      "screens.find": (args: { query: string }) => ({ screenId: "MNU-3120", matched: args.query }),
      "workRequests.close": (args: { id: string }) => ({ closed: args.id }),
    });

    expect(tools.map((tool) => tool.name)).toEqual(["findScreen", "closeWorkRequest"]);
    expect(tools[0]!.description).toBe("Finds a screen of the work-management app by name.");
    expect(tools[0]!.parameters).toEqual(declarations[0]!.parameters);
    expect(tools[0]!.execute({ query: "work requests" }, context)).toEqual({ screenId: "MNU-3120", matched: "work requests" });
    expect(tools[1]!.execute({ id: "WR-7" }, context)).toEqual({ closed: "WR-7" });
  });

  it("stops with tool_executor_missing naming the tool and the executor key", () => {
    const error = catchTetherError(() => loadToolCatalog(declarations, { "screens.find": () => ({}) }));

    expect(error.code).toBe("tool_executor_missing");
    expect(error.message).toContain('"closeWorkRequest"');
    expect(error.message).toContain('executor "workRequests.close"');
    expect(error.details).toEqual({ tools: [{ name: "closeWorkRequest", executor: "workRequests.close" }] });
  });

  it("names every tool whose executor is missing at once", () => {
    const error = catchTetherError(() => loadToolCatalog(declarations, {}));

    expect(error.message).toBe(
      'No executor is registered for tool "findScreen" (executor "screens.find"), "closeWorkRequest" (executor "workRequests.close"). Register it or remove the declaration.',
    );
  });

  it("treats an executor key that is not a function as missing", () => {
    const error = catchTetherError(() => loadToolCatalog([declarations[0]], { "screens.find": "not a function" as never }));

    expect(error.code).toBe("tool_executor_missing");
  });

  // Bug: catalog.ts line 36 looks executors up with `executors[declaration.executor]`, which reads
  // through Object.prototype. A declaration whose executor key is "toString" or "constructor"
  // passes the check with no executor registered, and the tool silently runs
  // Object.prototype.toString (or the Object constructor) instead of stopping start-up.
  it("stops with tool_executor_missing when the executor key names an Object.prototype member", () => {
    const error = catchTetherError(() => loadToolCatalog([{ ...declarations[0], executor: "toString" }], {}));

    expect(error.code).toBe("tool_executor_missing");
  });

  it("refuses a catalog that is not a list with config_invalid", () => {
    const error = catchTetherError(() => loadToolCatalog({ findScreen: declarations[0] }, {}));

    expect(error.code).toBe("config_invalid");
    expect(error.message).toMatch(/^The tool catalog is not a list of tool declarations: /);
  });

  it("refuses a declaration without an executor key with config_invalid", () => {
    const { executor: _missing, ...withoutExecutor } = declarations[0]!;

    expect(catchTetherError(() => loadToolCatalog([withoutExecutor], {})).code).toBe("config_invalid");
  });

  it("refuses a declaration with an empty description with config_invalid", () => {
    expect(catchTetherError(() => loadToolCatalog([{ ...declarations[0], description: "" }], { "screens.find": () => ({}) })).code).toBe("config_invalid");
  });

  it("refuses a tool name a model provider would not accept with config_invalid", () => {
    const error = catchTetherError(() => loadToolCatalog([{ ...declarations[0], name: "find screen" }], { "screens.find": () => ({}) }));

    expect(error.code).toBe("config_invalid");
    expect(error.message).toContain('"find screen"');
  });

  it("shows a tool to users holding one of its visibleToRoles, and to nobody else", () => {
    const tools = loadToolCatalog(declarations, { "screens.find": () => ({}), "workRequests.close": () => ({}) });
    const close = tools.find((tool) => tool.name === "closeWorkRequest")!;

    expect(close.visibleTo?.(LEE)).toBe(true);
    expect(close.visibleTo?.(KIM)).toBe(false);
  });

  it("shows a tool without visibleToRoles to everyone", () => {
    const [find] = loadToolCatalog([declarations[0]], { "screens.find": () => ({}) });

    expect(find!.visibleTo).toBeUndefined();
  });

  it("shows a tool with an empty visibleToRoles to nobody", () => {
    const [find] = loadToolCatalog([{ ...declarations[0], visibleToRoles: [] }], { "screens.find": () => ({}) });

    expect(find!.visibleTo?.(LEE)).toBe(false);
  });
});
