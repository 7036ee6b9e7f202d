import type { Diet, Recipe } from "./recipe.ts";

export interface RecipeQuery {
  query?: string;
  diet?: Diet;
  maxMinutes?: number;
  limit?: number;
}

/** A search hit as the model sees it: enough to choose and to offer, not the whole recipe. */
export interface RecipeSummary {
  id: string;
  title: string;
  summary: string;
  minutes: number;
  servings: number;
  diets: Diet[];
}

export interface RecipeSearchResult {
  query: string;
  diet?: Diet;
  maxMinutes?: number;
  total: number;
  recipes: RecipeSummary[];
}

// Words that say nothing about which recipe: "something quick with leftover rice?" searches for quick, leftover, rice.
// Meal words too: nothing is tagged "dinner", and any recipe will do for one.
const FILLER = new Set(
  "a an and any are can cook do for from give got have i idea ideas in is it make me my of on or please recipe recipes some something the to use what with dinner lunch supper meal tonight today".split(
    " ",
  ),
);

/**
 * Finds recipes by words in their title, tags, ingredients and summary
 * ("leftover" finds "leftovers"), within a diet and a time limit. Best match
 * first, then the quickest.
 */
export function searchRecipes(recipes: readonly Recipe[], { query = "", diet, maxMinutes, limit = 8 }: RecipeQuery): RecipeSearchResult {
  const words = query
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .filter((word) => word.length > 1 && !FILLER.has(word));
  const scored = recipes
    .filter((recipe) => (!diet || recipe.diets.includes(diet)) && (!maxMinutes || recipe.minutes <= maxMinutes))
    .map((recipe) => ({ recipe, score: score(recipe, words) }))
    .filter(({ score }) => words.length === 0 || score > 0)
    .sort((a, b) => b.score - a.score || a.recipe.minutes - b.recipe.minutes || a.recipe.id.localeCompare(b.recipe.id));
  return {
    query,
    ...(diet ? { diet } : {}),
    ...(maxMinutes ? { maxMinutes } : {}),
    total: scored.length,
    recipes: scored.slice(0, limit).map(({ recipe }) => summarize(recipe)),
  };
}

export function summarize({ id, title, summary, minutes, servings, diets }: Recipe): RecipeSummary {
  return { id, title, summary, minutes, servings, diets };
}

/** Title words weigh most, then tags, then ingredients, then the summary. */
function score(recipe: Recipe, words: string[]): number {
  const fields: Array<[string[], number]> = [
    [tokens(recipe.title), 4],
    [recipe.tags.flatMap(tokens), 3],
    [recipe.ingredients.flatMap((ingredient) => tokens(ingredient.name)), 2],
    [tokens(recipe.summary), 1],
  ];
  let total = 0;
  for (const word of words) {
    const best = Math.max(0, ...fields.map(([field, weight]) => (field.some((token) => sameWord(token, word)) ? weight : 0)));
    total += best;
  }
  return total;
}

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .filter(Boolean);
}

/** "leftover" and "leftovers", "egg" and "eggs": the same word for a search. */
function sameWord(token: string, word: string): boolean {
  if (token === word) return true;
  const [short, long] = token.length < word.length ? [token, word] : [word, token];
  return short.length >= 3 && long.startsWith(short) && long.length - short.length <= 2;
}
