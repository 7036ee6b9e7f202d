import { describe, expect, it } from "vitest";
import { RECIPES } from "./recipes.ts";
import { searchRecipes } from "./search-recipes.ts";

const byId = new Map(RECIPES.map((recipe) => [recipe.id, recipe]));
const mentionsRice = (id: string) => {
  const recipe = byId.get(id)!;
  return /\brice\b/i.test(recipe.title) || recipe.tags.includes("rice") || recipe.ingredients.some((ingredient) => /\brice\b/i.test(ingredient.name));
};

describe("searchRecipes", () => {
  it("finds rice recipes ready in 20 minutes or less for leftover rice, Egg fried rice (r-204) first", () => {
    // What the playbook searches for "Something quick with leftover rice?".
    const found = searchRecipes(RECIPES, { query: "something with leftover rice", maxMinutes: 20 });
    expect(found.total).toBeGreaterThanOrEqual(3);
    expect(found.recipes[0]!.id).toBe("r-204");
    expect(found.recipes.filter((recipe) => recipe.minutes > 20)).toEqual([]);
    expect(found.recipes.filter((recipe) => !mentionsRice(recipe.id))).toEqual([]);
    expect(found).toMatchObject({ query: "something with leftover rice", maxMinutes: 20 });
  });

  it("keeps the time limit: without it, slower rice dishes come too", () => {
    const quick = searchRecipes(RECIPES, { query: "leftover rice", maxMinutes: 20 });
    const any = searchRecipes(RECIPES, { query: "leftover rice", limit: 100 });
    expect(any.total).toBeGreaterThan(quick.total);
    expect(any.recipes.some((recipe) => recipe.minutes > 20)).toBe(true);
  });

  it("ranks best match first, then the quickest, then by id", () => {
    const found = searchRecipes(RECIPES, { query: "rice", limit: 100 });
    const sameScoreRuns = found.recipes.filter((recipe) => /\brice\b/i.test(recipe.title));
    // Title matches weigh most, so every recipe with rice in its title comes before those with rice elsewhere.
    expect(found.recipes.slice(0, sameScoreRuns.length)).toEqual(sameScoreRuns);
    const minutes = sameScoreRuns.map((recipe) => recipe.minutes);
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
  });

  it("keeps to a diet: a vegetarian search for leftover rice leaves out the kimchi fried rice with bacon", () => {
    const all = searchRecipes(RECIPES, { query: "leftover rice", maxMinutes: 20 });
    const vegetarian = searchRecipes(RECIPES, { query: "leftover rice", maxMinutes: 20, diet: "vegetarian" });
    expect(all.recipes.map((recipe) => recipe.id)).toContain("r-238");
    expect(vegetarian.recipes.map((recipe) => recipe.id)).not.toContain("r-238");
    expect(vegetarian.recipes.every((recipe) => recipe.diets.includes("vegetarian"))).toBe(true);
    expect(vegetarian).toMatchObject({ diet: "vegetarian" });
  });

  it('treats "leftover" and "leftovers", "egg" and "eggs" as the same word', () => {
    const one = searchRecipes(RECIPES, { query: "leftover", limit: 100 }).recipes.map((recipe) => recipe.id);
    const many = searchRecipes(RECIPES, { query: "leftovers", limit: 100 }).recipes.map((recipe) => recipe.id);
    expect(one.length).toBeGreaterThan(0);
    expect(many).toEqual(one);
    expect(searchRecipes(RECIPES, { query: "eggs", limit: 100 }).recipes.map((recipe) => recipe.id)).toContain("r-204");
  });

  it("finds nothing for words no recipe has, and everything for filler words alone", () => {
    expect(searchRecipes(RECIPES, { query: "zebra marmalade" })).toMatchObject({ total: 0, recipes: [] });
    expect(searchRecipes(RECIPES, { query: "something to cook, please", limit: 100 }).total).toBe(RECIPES.length);
  });

  it("returns at most `limit` summaries, and the total of all matches", () => {
    const found = searchRecipes(RECIPES, { query: "rice", limit: 2 });
    expect(found.recipes).toHaveLength(2);
    expect(found.total).toBeGreaterThan(2);
    expect(Object.keys(found.recipes[0]!).sort()).toEqual(["diets", "id", "minutes", "servings", "summary", "title"]);
  });
});
