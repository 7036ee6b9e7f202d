import type { Context } from "@ag-ui/core";
import type { Recipe } from "./api.ts";

/** The recipe open in the content area, and the step the person is on (1-based). */
export interface OnScreen {
  recipe: Pick<Recipe, "id" | "title" | "steps">;
  step: number;
}

/**
 * What the agent should know about the screen as a run starts, sent as the
 * run's context: "On screen: recipe r-204 (Egg fried rice), step 2 of 6". It
 * is how "start a timer" knows which step; nothing open, nothing sent.
 */
export function onScreenContext(screen: OnScreen | undefined): Context[] {
  if (!screen) return [];
  const { recipe, step } = screen;
  return [{ description: "On screen", value: `recipe ${recipe.id} (${recipe.title}), step ${step} of ${recipe.steps.length}` }];
}
