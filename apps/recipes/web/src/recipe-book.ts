import { useEffect, useState } from "react";
import { RECIPES_API, getJson, type Recipe } from "./api.ts";

/** The recipes this page has loaded, each fetched once: the cards, the detail view and the tools share them. */
export interface RecipeBook {
  load(recipeId: string): Promise<Recipe>;
  /** The recipe if it is already here. */
  peek(recipeId: string): Recipe | undefined;
}

export function createRecipeBook(): RecipeBook {
  const loading = new Map<string, Promise<Recipe>>();
  const loaded = new Map<string, Recipe>();
  return {
    load(recipeId) {
      let pending = loading.get(recipeId);
      if (!pending) {
        pending = getJson<{ recipe: Recipe }>(`${RECIPES_API}/recipes/${encodeURIComponent(recipeId)}`).then(({ recipe }) => {
          loaded.set(recipeId, recipe);
          return recipe;
        });
        // A failed load may succeed later (the network came back): do not keep the failure.
        pending.catch(() => loading.delete(recipeId));
        loading.set(recipeId, pending);
      }
      return pending;
    },
    peek: (recipeId) => loaded.get(recipeId),
  };
}

/** A recipe from the book, loading it if needed: the recipe, or the error in words. */
export function useRecipe(book: RecipeBook, recipeId: string | undefined): { recipe?: Recipe; error?: string } {
  const [state, setState] = useState<{ id?: string; recipe?: Recipe; error?: string }>({});
  useEffect(() => {
    if (!recipeId) return;
    let live = true;
    book.load(recipeId).then(
      (recipe) => live && setState({ id: recipeId, recipe }),
      (error: Error) => live && setState({ id: recipeId, error: error.message }),
    );
    return () => {
      live = false;
    };
  }, [book, recipeId]);
  const known = recipeId ? book.peek(recipeId) : undefined;
  if (known) return { recipe: known };
  return state.id === recipeId ? { ...(state.recipe ? { recipe: state.recipe } : {}), ...(state.error ? { error: state.error } : {}) } : {};
}
