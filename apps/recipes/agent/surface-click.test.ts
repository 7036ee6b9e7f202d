import { describe, expect, it } from "vitest";
import { RECIPES } from "./recipes.ts";
import { afterSurfaceClick } from "./surface-click.ts";

const byId = new Map(RECIPES.map((recipe) => [recipe.id, recipe]));
const PHONE = ["offer_recipes", "save_to_cookbook", "order_ingredients", "start_step_timer"];
const GUEST = ["offer_recipes"];

describe("afterSurfaceClick", () => {
  it("times the step the button names with the recipe's own duration, not the one the page reported", () => {
    const turn = afterSurfaceClick({ name: "start_timer", surfaceId: "recipe-r-204", context: { recipeId: "r-204", step: 1, seconds: 9000 } }, byId, PHONE);
    expect(turn.toolCalls).toEqual([{ toolName: "start_step_timer", input: { seconds: 60, label: "Step 1: Beat the eggs in a bowl." } }]);
  });

  it("takes the recipe from the surface when the page sent no id", () => {
    const turn = afterSurfaceClick({ name: "save_recipe", surfaceId: "recipe-r-204", context: {} }, byId, PHONE);
    expect(turn.toolCalls).toEqual([{ toolName: "save_to_cookbook", input: { recipeId: "r-204" } }]);
  });

  it("asks a guest to sign in rather than save", () => {
    expect(afterSurfaceClick({ name: "save_recipe", context: { recipeId: "r-204" } }, byId, GUEST)).toEqual({
      text: "Saving recipes needs an account: sign in, and I can save Egg fried rice to your cookbook.",
    });
  });

  it.each([
    [{ name: "start_timer", context: { recipeId: "r-204", step: 9 } }, "I couldn't tell which step of Egg fried rice that timer was for."],
    [{ name: "start_timer", context: { recipeId: "r-999", step: 1 } }, "I couldn't tell which recipe that button was for."],
    [{ name: "share_recipe", context: { recipeId: "r-204" } }, "That button (share_recipe) is not one I know what to do with."],
  ])("calls nothing for %j", (click, text) => {
    expect(afterSurfaceClick(click, byId, PHONE)).toEqual({ text });
  });
});
