import { INITIAL_RECIPE, type Recipe } from "../../../agent/recipe.ts";

export type { Recipe };
export type Ingredient = Recipe["ingredients"][number];

export const SKILL_LEVELS: Recipe["skill_level"][] = ["Beginner", "Intermediate", "Advanced"];
export const COOKING_TIMES: Recipe["cooking_time"][] = ["5 min", "15 min", "30 min", "45 min", "60+ min"];
/** The dojo page's dietary options. */
export const PREFERENCES = ["High Protein", "Low Carb", "Spicy", "Budget-Friendly", "One-Pot Meal", "Vegetarian", "Vegan"];

/**
 * The recipe in the agent's state, as far as it has arrived: while the agent
 * writes it, predicted state holds the recipe half-written (a title, some
 * ingredients, an ingredient without its amount yet), so every field is read
 * on its own. No recipe at all (a new thread) is the page's starting recipe.
 */
export function readRecipe(value: unknown): Recipe {
  if (!value || typeof value !== "object") return INITIAL_RECIPE;
  const recipe = value as Record<string, unknown>;
  return {
    title: text(recipe.title),
    skill_level: SKILL_LEVELS.find((level) => level === recipe.skill_level) ?? INITIAL_RECIPE.skill_level,
    cooking_time: COOKING_TIMES.find((time) => time === recipe.cooking_time) ?? INITIAL_RECIPE.cooking_time,
    special_preferences: list(recipe.special_preferences).filter((entry): entry is string => typeof entry === "string"),
    ingredients: list(recipe.ingredients).flatMap((entry) => (entry && typeof entry === "object" ? [ingredient(entry as Record<string, unknown>)] : [])),
    instructions: list(recipe.instructions).filter((entry): entry is string => typeof entry === "string"),
  };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const ingredient = (entry: Record<string, unknown>): Ingredient => ({ icon: text(entry.icon), name: text(entry.name), amount: text(entry.amount) });
