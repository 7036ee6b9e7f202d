import { TetherError } from "@tether-agent/tether/protocol";
import { defineTool } from "@tether-agent/tether/server";
import { z } from "zod";
import { DIETS, type Recipe } from "./recipe.ts";
import { searchRecipes } from "./search-recipes.ts";

/** The Recipes agent's server tools: it reads the shipped recipes and nothing else. */
export function recipeTools(recipes: readonly Recipe[]) {
  const byId = new Map(recipes.map((recipe) => [recipe.id, recipe]));
  return [
    defineTool({
      name: "searchRecipes",
      description:
        "Search the recipe collection by words (title, ingredients, tags such as leftovers or quick), a diet and a time limit. Returns the best matches first.",
      parameters: z.object({
        query: z.string().max(200).optional().describe('Words to search for, such as "leftover rice".'),
        diet: z.enum(DIETS).optional(),
        maxMinutes: z.number().int().min(1).max(600).optional().describe("Only recipes that take at most this long."),
      }),
      execute: (query) => searchRecipes(recipes, query),
    }),
    defineTool({
      name: "getRecipe",
      description: "The whole recipe: ingredients with quantities and steps with how long each takes.",
      parameters: z.object({ recipeId: z.string().regex(/^r-\d{3}$/) }),
      execute: ({ recipeId }) => {
        const recipe = byId.get(recipeId);
        if (!recipe) throw new TetherError("not_found", `There is no recipe ${recipeId}; search for recipes to find an id.`);
        return recipe;
      },
    }),
  ];
}
