import { validateSurface } from "@tether-agent/tether/genui";
import { describe, expect, it } from "vitest";
import { recipeSurface } from "./recipe-surface.ts";
import { RECIPES } from "./recipes.ts";

const actionsOf = (surface: ReturnType<typeof recipeSurface>) =>
  surface.components.flatMap((component) => ("action" in component ? [(component.action as { event: { name: string } }).event.name] : []));

describe("the recipe surface", () => {
  it.each([
    { timers: false, save: false },
    { timers: true, save: true },
  ])("passes Tether's own validation for every shipped recipe (%o)", (buttons) => {
    for (const recipe of RECIPES) {
      const validation = validateSurface(recipeSurface(recipe, buttons), {});
      expect(validation.ok ? [] : validation.errors, recipe.id).toEqual([]);
    }
  });

  it("has a Start timer per step only with timers, and Save only when the page can save", () => {
    const eggFriedRice = RECIPES.find((recipe) => recipe.id === "r-204")!;
    expect(actionsOf(recipeSurface(eggFriedRice, { timers: false, save: false }))).toEqual([]);
    expect(actionsOf(recipeSurface(eggFriedRice, { timers: false, save: true }))).toEqual(["save_recipe"]);
    expect(actionsOf(recipeSurface(eggFriedRice, { timers: true, save: false }))).toEqual(eggFriedRice.steps.map(() => "start_timer"));
  });
});
