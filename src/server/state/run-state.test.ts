import type { BaseEvent, JsonPatchOperation } from "@ag-ui/core";
import { catchTetherError } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createArgumentChecker } from "../../protocol/index.ts";
import { compileAgentState } from "./agent-state.ts";
import { applyOperations } from "./json-patch.ts";
import { createRunState } from "./run-state.ts";

const recipeSchema = z.object({
  recipe: z.object({ title: z.string(), servings: z.number().int(), ingredients: z.array(z.string()) }),
});
const recipes = compileAgentState(
  "recipes",
  { schema: recipeSchema, initial: { recipe: { title: "Soup", servings: 2, ingredients: ["leek"] } } },
  createArgumentChecker(),
);

/** A holder of the recipe agent's state, or of any object (`initial` given, no schema). */
function holder(initial?: Record<string, unknown>) {
  const events: Array<BaseEvent & { delta?: JsonPatchOperation[]; snapshot?: unknown }> = [];
  const emit = (event: BaseEvent) => void events.push(event);
  const state = initial ? createRunState({ initial, emit }) : createRunState({ initial: recipes.initial!, schema: recipes.schema, emit });
  return { state, events };
}

describe("createRunState", () => {
  it("applies a patch, streams it as one STATE_DELTA, and applying it as the client does lands on the same value", () => {
    const { state, events } = holder();
    const before = state.get();
    const operations: JsonPatchOperation[] = [
      { op: "replace", path: "/recipe/title", value: "Leek soup" },
      { op: "add", path: "/recipe/ingredients/-", value: "potato" },
    ];
    state.patch(operations);

    expect(state.get()).toEqual({ recipe: { title: "Leek soup", servings: 2, ingredients: ["leek", "potato"] } });
    expect(events).toEqual([{ type: "STATE_DELTA", delta: operations }]);
    expect(applyOperations(before, events[0]!.delta!)).toEqual(state.get());
  });

  it("hands out a frozen state, and keeps none of the caller's objects", () => {
    const { state } = holder();
    expect(() => ((state.get().recipe as { title: string }).title = "Hacked")).toThrow(TypeError);
    const value = ["a"];
    state.patch([{ op: "replace", path: "/recipe/ingredients", value }]);
    value.push("b");
    expect((state.get().recipe as { ingredients: string[] }).ingredients).toEqual(["a"]);
  });

  it("refuses a patch that does not apply with state_patch_invalid naming its path, and sends nothing", () => {
    const { state, events } = holder();
    const error = catchTetherError(() => state.patch([{ op: "replace", path: "/recipe/cook/name", value: "Ana" }]));
    expect(error.code).toBe("state_patch_invalid");
    expect(error.message).toContain('"/recipe/cook/name"');
    expect(events).toEqual([]);
    expect(state.get()).toEqual(recipes.initial);
    expect(state.changed()).toBe(false);
  });

  it("refuses a patch whose result breaks the schema, naming the op and the schema's path; the state is unchanged", () => {
    const { state, events } = holder();
    const error = catchTetherError(() =>
      state.patch([
        { op: "add", path: "/recipe/ingredients/-", value: "salt" },
        { op: "replace", path: "/recipe/servings", value: "four" },
      ]),
    );
    expect(error.code).toBe("state_patch_invalid");
    expect(error.message).toMatch(/replace "\/recipe\/servings"/);
    expect(error.message).toMatch(/\/recipe\/servings must be integer/);
    expect(events).toEqual([]);
    expect((state.get().recipe as { ingredients: string[] }).ingredients).toEqual(["leek"]);
  });

  it("refuses a failed test op, so a tool can guard against a parallel tool's change", () => {
    const { state, events } = holder();
    state.patch([{ op: "replace", path: "/recipe/title", value: "Stew" }]);
    const error = catchTetherError(() =>
      state.patch([
        { op: "test", path: "/recipe/title", value: "Soup" },
        { op: "replace", path: "/recipe/title", value: "Broth" },
      ]),
    );
    expect(error.message).toMatch(/the test at "\/recipe\/title" failed/);
    expect(events).toHaveLength(1);
    expect(state.get()).toMatchObject({ recipe: { title: "Stew" } });
  });

  it("refuses a state that is no longer an object, and prototype paths, for an agent without a schema", () => {
    const { state } = holder({ a: 1 });
    expect(catchTetherError(() => state.patch([{ op: "replace", path: "", value: [1] }])).message).toMatch(/must be a JSON object, not an array/);
    expect(catchTetherError(() => state.patch([{ op: "add", path: "/__proto__/polluted", value: 1 }])).code).toBe("state_patch_invalid");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(state.get()).toEqual({ a: 1 });
  });

  it("refuses a state over the size limit", () => {
    const { state } = holder({});
    expect(catchTetherError(() => state.set({ big: "x".repeat(300 * 1024) })).message).toMatch(/over the 262144 a state may have/);
  });

  it("sets a new value as the smallest patch, and sends nothing when it is equal or the patch is empty", () => {
    const { state, events } = holder();
    state.set({ recipe: { title: "Soup", servings: 4, ingredients: ["leek"] } });
    state.set({ recipe: { title: "Soup", servings: 4, ingredients: ["leek"] } });
    state.patch([]);
    state.patch([{ op: "test", path: "/recipe/servings", value: 4 }]);
    expect(events).toEqual([{ type: "STATE_DELTA", delta: [{ op: "replace", path: "/recipe/servings", value: 4 }] }]);
  });

  it("replaces the state with a STATE_SNAPSHOT after checking it, and not when it is equal", () => {
    const { state, events } = holder();
    const next = { recipe: { title: "Pie", servings: 6, ingredients: [] } };
    state.replace(next);
    state.replace(next);
    expect(events).toEqual([{ type: "STATE_SNAPSHOT", snapshot: next }]);
    expect(catchTetherError(() => state.replace({ recipe: { title: 1 } })).message).toMatch(/the snapshot does not match the state schema/);
    expect(state.get()).toEqual(next);
  });

  it("says whether it changed since it was last taken, and gives the state once per change", () => {
    const { state } = holder();
    expect(state.take()).toBeUndefined();
    state.patch([{ op: "replace", path: "/recipe/servings", value: 3 }]);
    expect(state.changed()).toBe(true);
    expect(state.take()).toMatchObject({ recipe: { servings: 3 } });
    expect(state.changed()).toBe(false);
    expect(state.take()).toBeUndefined();
  });

  it("applies parallel changes in one order, the order they are streamed in", async () => {
    const { state, events } = holder({ steps: [] });
    await Promise.all(
      [1, 2, 3].map(async (n) => {
        await new Promise((resolve) => setTimeout(resolve, 4 - n));
        state.patch([{ op: "add", path: "/steps/-", value: n }]);
      }),
    );
    let client: unknown = { steps: [] };
    for (const event of events) client = applyOperations(client, event.delta!);
    expect(client).toEqual(state.get());
    expect(state.get()).toEqual({ steps: [3, 2, 1] });
  });
});

describe("createRunState's predictions", () => {
  /** What a client holds after applying every event in order, as @ag-ui/client does. */
  const clientView = (initial: object, events: Array<BaseEvent & { delta?: JsonPatchOperation[]; snapshot?: unknown }>) =>
    events.reduce<object>((value, event) => (event.type === "STATE_SNAPSHOT" ? (event.snapshot as object) : applyOperations(value, event.delta!)), initial);

  it("shows a prediction to clients without storing it, and the tool's change lands every client on the state", () => {
    const { state, events } = holder();
    const initial = state.get();
    state.predict("recipe", { title: "Pas" });
    state.predict("recipe", { title: "Pasta", servings: 2 });
    expect(state.get()).toEqual(initial); // not the state: unchecked, unstored
    expect(state.changed()).toBe(false);
    expect(clientView(initial, events)).toEqual({ recipe: { title: "Pasta", servings: 2 } });

    state.set({ recipe: { title: "Pasta", servings: 2, ingredients: ["pasta"] } });
    expect(clientView(initial, events)).toEqual(state.get());
    // From the prediction, only what it lacked travels.
    expect(events.at(-1)!.delta).toEqual([{ op: "add", path: "/recipe/ingredients", value: ["pasta"] }]);
    state.settle();
    expect(events).toHaveLength(3);
  });

  it("takes back, at the step's end, a prediction no change confirmed", () => {
    const { state, events } = holder();
    const initial = state.get();
    state.predict("recipe", { title: "Half a recip" });
    state.settle();
    expect(clientView(initial, events)).toEqual(initial);
    state.settle();
    expect(events).toHaveLength(2);
  });
});
