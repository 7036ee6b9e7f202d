/** Diets a recipe suits; the search filters on them. */
export const DIETS = ["vegetarian", "vegan", "gluten-free", "dairy-free"] as const;
export type Diet = (typeof DIETS)[number];

export interface Ingredient {
  name: string;
  /** For the recipe's own `servings`; an order scales it. */
  quantity: number;
  /** "g", "ml", "tbsp", "tsp", "cup", or "" for a count (2 eggs). */
  unit: string;
}

export interface RecipeStep {
  text: string;
  /** How long the step takes, for the step timer. */
  seconds: number;
}

export interface Recipe {
  /** `r-201` … */
  id: string;
  title: string;
  /** One sentence, shown on the card. */
  summary: string;
  /** Total time, preparation included. */
  minutes: number;
  servings: number;
  ingredients: Ingredient[];
  steps: RecipeStep[];
  diets: Diet[];
  /** Words people search with that the title may not hold ("leftovers", "quick", "breakfast"). */
  tags: string[];
}
