import type { Recipe } from "./recipe.ts";
import { amountOf } from "./wording.ts";

/** The whole recipe as a paragraph: what the person gets when no surface can show it. */
export function recipeInWords(recipe: Recipe): string {
  const steps = recipe.steps.map((step, index) => `${index + 1}. ${step.text}`).join(" ");
  return `${recipe.title} takes ${recipe.minutes} minutes and serves ${recipe.servings}. You'll need ${recipe.ingredients.map(amountOf).join(", ")}. ${steps}`;
}
