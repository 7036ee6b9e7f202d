import { errorFromResponse } from "@tether-agent/tether/client";
import type { Recipe } from "../../agent/recipe.ts";
import type { RecipeSearchResult } from "../../agent/search-recipes.ts";
import type { CookbookEntry, GroceryOrder } from "../../kitchen/kitchen.ts";
import type { RecipesUser } from "../../agent/users.ts";

/** The Recipes API and the demo sign-in, as this page calls them; errors come back as TetherError (code and message). */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: "application/json" } });
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as T;
}

export async function sendJson<T>(method: "POST" | "DELETE", path: string, body: unknown = {}): Promise<T> {
  const response = await fetch(path, { method, headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw await errorFromResponse(response);
  return (await response.json()) as T;
}

export const RECIPES_API = "/api/recipes";

/** A person as the page knows them: the Recipes profile the demo sign-in returns. */
export type User = Pick<RecipesUser, "id" | "displayName" | "signedIn" | "diet">;

export type { CookbookEntry, GroceryOrder, Recipe, RecipeSearchResult };
