import type { Recipe } from "./recipe.ts";
import { amountOf } from "./wording.ts";

/**
 * A recipe as an A2UI v0.9 surface (the basic catalog): ingredients with
 * quantities, steps with their durations, and the buttons this frontend can
 * act on, each starting the next run: "Start timer" per step where the page
 * handed over a step timer (a phone), "Save" where it can save (signed in).
 */
export function recipeSurface(recipe: Recipe, buttons: { timers: boolean; save: boolean }) {
  const ingredients = recipe.ingredients.map((ingredient, index) => ({
    id: `ingredient-${index}`,
    component: "Text",
    text: amountOf(ingredient),
  }));
  const steps = recipe.steps.flatMap((step, index) => {
    const number = index + 1;
    const text = { id: `step-${number}-text`, component: "Text", text: `${number}. ${step.text}` };
    if (!buttons.timers) return [{ ...text, id: `step-${number}` }];
    return [
      // Centred, with the words taking the width: a Row stretches its children by default, so a long step drew a tall oval button.
      { id: `step-${number}`, component: "Row", children: [text.id, `step-${number}-timer`], align: "center" },
      { ...text, weight: 1 },
      {
        id: `step-${number}-timer`,
        component: "Button",
        child: `step-${number}-timer-label`,
        action: { event: { name: "start_timer", context: { recipeId: { path: "/recipe/id" }, step: number, seconds: step.seconds } } },
      },
      { id: `step-${number}-timer-label`, component: "Text", text: `Start timer (${minutes(step.seconds)})` },
    ];
  });
  const stepIds = recipe.steps.map((_, index) => `step-${index + 1}`);
  return {
    surfaceId: `recipe-${recipe.id}`,
    components: [
      { id: "root", component: "Card", child: "body" },
      {
        id: "body",
        component: "Column",
        children: ["title", "facts", "ingredients-heading", "ingredients", "steps-heading", "steps", ...(buttons.save ? ["save"] : [])],
      },
      { id: "title", component: "Text", text: { path: "/recipe/title" }, variant: "h3" },
      { id: "facts", component: "Text", text: { path: "/recipe/facts" }, variant: "caption" },
      { id: "ingredients-heading", component: "Text", text: "Ingredients", variant: "h4" },
      { id: "ingredients", component: "Column", children: ingredients.map((ingredient) => ingredient.id) },
      ...ingredients,
      { id: "steps-heading", component: "Text", text: "Steps", variant: "h4" },
      { id: "steps", component: "Column", children: stepIds },
      ...steps,
      ...(buttons.save
        ? [
            { id: "save", component: "Button", child: "save-label", action: { event: { name: "save_recipe", context: { recipeId: { path: "/recipe/id" } } } } },
            { id: "save-label", component: "Text", text: "Save to cookbook" },
          ]
        : []),
    ],
    data: { recipe: { id: recipe.id, title: recipe.title, facts: `${recipe.minutes} min · serves ${recipe.servings}` } },
  };
}

function minutes(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}
