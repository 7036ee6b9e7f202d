import { useRecipe, type RecipeBook } from "./recipe-book.ts";

/** A recipe's title, loading it if the page has not yet; its id meanwhile or when it cannot be loaded. */
export function RecipeTitle({ book, recipeId }: { book: RecipeBook; recipeId: string }) {
  return <>{useRecipe(book, recipeId).recipe?.title ?? recipeId}</>;
}
