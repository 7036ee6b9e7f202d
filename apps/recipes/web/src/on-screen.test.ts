import { describe, expect, it } from "vitest";
import { RECIPES } from "../../agent/recipes.ts";
import { onScreenContext } from "./on-screen.ts";

const eggFriedRice = RECIPES.find((recipe) => recipe.id === "r-204")!;

describe("onScreenContext", () => {
  it("names the open recipe and step, as the agent reads the system text (`description: value`)", () => {
    const [item] = onScreenContext({ recipe: eggFriedRice, step: 2 });
    const system = `${item!.description}: ${item!.value}`;
    expect(system).toBe(`On screen: recipe r-204 (Egg fried rice), step 2 of ${eggFriedRice.steps.length}`);
    // What the offline playbook looks for: the recipe, then the step.
    expect(system.match(/On screen: recipe (r-\d{3})/)?.[1]).toBe("r-204");
    expect(system.match(/On screen: recipe r-\d{3}[^\n]*?step (\d+)/)?.[1]).toBe("2");
  });

  it("sends nothing when no recipe is open", () => {
    expect(onScreenContext(undefined)).toEqual([]);
  });
});
