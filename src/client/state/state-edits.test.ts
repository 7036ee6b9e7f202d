import jsonPatch, { type Operation } from "fast-json-patch";
import { describe, expect, it } from "vitest";
import { createStateEdits, type SharedState } from "./state-edits.ts";

const RECIPE = { recipe: { title: "Soup", servings: 2, ingredients: ["leek"] } };

/** The agent's side as `@ag-ui/client` computes it: each STATE_DELTA applied with the same call and flags. */
function agentSide(start: SharedState) {
  let state = start;
  return {
    delta(delta: Operation[]) {
      state = jsonPatch.applyPatch(state, delta, true, false).newDocument;
      return state;
    },
  };
}

describe("createStateEdits", () => {
  it("keeps the person's edit on the paths it touched and the agent's deltas elsewhere, and tells the edit it had to drop", () => {
    const edits = createStateEdits();
    const agent = agentSide(RECIPE);
    edits.receive(RECIPE); // the run's opening STATE_SNAPSHOT

    edits.edit({ recipe: { ...RECIPE.recipe, title: "Leek soup" } });
    const replaceAndAppend: Operation[] = [
      { op: "replace", path: "/recipe/title", value: "Stew" },
      { op: "add", path: "/recipe/ingredients/-", value: "potato" },
    ];
    edits.receive(agent.delta(replaceAndAppend), replaceAndAppend);
    expect(edits.shown()).toEqual({ recipe: { title: "Leek soup", servings: 2, ingredients: ["leek", "potato"] } });

    edits.edit((({ recipe }) => ({ recipe: { ...recipe, servings: 4 } }))(edits.shown() as typeof RECIPE));
    const removeServings: Operation[] = [{ op: "remove", path: "/recipe/servings" }];
    edits.receive(agent.delta(removeServings), removeServings);

    expect(edits.shown()).toEqual({ recipe: { title: "Leek soup", ingredients: ["leek", "potato"] } });
    expect(edits.conflicts()).toEqual([
      {
        path: "/recipe/servings",
        operation: { op: "replace", path: "/recipe/servings", value: 4 },
        reason: "OPERATION_PATH_UNRESOLVABLE",
        delta: removeServings,
      },
    ]);
    // The title edit is still owed to the agent; the next request carries what is shown.
    expect(edits.hasPending()).toBe(true);
    edits.send();
    expect(edits.base()).toEqual(edits.shown());
    expect(edits.hasPending()).toBe(false);
  });

  it("replays the edits on a snapshot that replaces the whole state, and names no delta for what it drops", () => {
    const edits = createStateEdits(RECIPE);
    edits.edit({ recipe: { ...RECIPE.recipe, title: "Leek soup" }, note: "for Sunday" });
    edits.receive({ menu: [] });
    expect(edits.shown()).toEqual({ menu: [], note: "for Sunday" });
    expect(edits.conflicts()).toEqual([
      { path: "/recipe/title", operation: { op: "replace", path: "/recipe/title", value: "Leek soup" }, reason: "OPERATION_PATH_UNRESOLVABLE" },
    ]);
  });

  it("drops a conflicting edit once: the next state does not report it again", () => {
    const edits = createStateEdits(RECIPE);
    edits.edit({ recipe: { ...RECIPE.recipe, servings: 4 } });
    edits.receive({ recipe: { title: "Soup", ingredients: [] } });
    edits.receive({ recipe: { title: "Stew", ingredients: [] } });
    expect(edits.conflicts()).toHaveLength(1);
    expect(edits.hasPending()).toBe(false);
  });

  it("does not call it a conflict when the agent removed what the person removed", () => {
    const edits = createStateEdits(RECIPE);
    edits.edit({ recipe: { title: "Soup", ingredients: ["leek"] } });
    edits.receive({ recipe: { title: "Soup", ingredients: ["leek"] } });
    expect(edits.shown()).toEqual({ recipe: { title: "Soup", ingredients: ["leek"] } });
    expect(edits.conflicts()).toEqual([]);
  });

  it("keeps an edit a request carried when the server never started that run, and drops it once a run did", () => {
    const refused = createStateEdits(RECIPE);
    refused.edit({ recipe: { ...RECIPE.recipe, title: "Leek soup" } });
    refused.send();
    refused.settle(false); // refused (a 409, the network): the edit waits for the next request
    expect(refused.hasPending()).toBe(true);
    refused.receive({ recipe: { ...RECIPE.recipe, servings: 3 } }); // another tab's run moved the state meanwhile
    expect(refused.shown()).toEqual({ recipe: { ...RECIPE.recipe, title: "Leek soup", servings: 3 } });

    const taken = createStateEdits(RECIPE);
    taken.edit({ recipe: { ...RECIPE.recipe, ingredients: ["leek", "salt"] } });
    taken.send();
    // The run's snapshot already holds the sent edit: replaying the `add` again would list salt twice.
    taken.receive({ recipe: { ...RECIPE.recipe, ingredients: ["leek", "salt"] } });
    taken.settle(true);
    expect(taken.shown()).toEqual({ recipe: { ...RECIPE.recipe, ingredients: ["leek", "salt"] } });
    expect(taken.hasPending()).toBe(false);
  });

  it("keeps no operation for an edit that changes nothing, and forgets conflicts when told", () => {
    const edits = createStateEdits(RECIPE);
    edits.edit(structuredClone(RECIPE));
    expect(edits.hasPending()).toBe(false);
    edits.edit({ recipe: { ...RECIPE.recipe, servings: 4 } });
    edits.receive({});
    expect(edits.conflicts()).toHaveLength(1);
    edits.clearConflicts();
    expect(edits.conflicts()).toEqual([]);
  });

  it("keeps the object shown when a new state has the same content", () => {
    const edits = createStateEdits(RECIPE);
    const shown = edits.shown();
    edits.receive(structuredClone(RECIPE));
    expect(edits.shown()).toBe(shown);
    edits.receive({ ...RECIPE, note: "new" });
    expect(edits.shown()).not.toBe(shown);
  });

  it("edits lists by position: an edit of the second step follows the index, not the step (the documented caveat)", () => {
    const steps = { steps: [{ name: "chop" }, { name: "boil" }] };
    const edits = createStateEdits(steps);
    edits.edit({ steps: [{ name: "chop" }, { name: "simmer" }] });
    edits.receive({ steps: [{ name: "wash" }, { name: "chop" }, { name: "boil" }] });
    expect(edits.shown()).toEqual({ steps: [{ name: "wash" }, { name: "simmer" }, { name: "boil" }] });
  });
});
