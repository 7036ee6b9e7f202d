import { describe, expect, it } from "vitest";
import { DIETS, type Recipe } from "./recipe.ts";
import { RECIPES } from "./recipes.ts";

const UNITS = ["g", "ml", "tbsp", "tsp", "cup", ""];

/** Ingredient words a vegetarian (and so a vegan) recipe cannot hold; plurals count too. */
const MEAT_OR_FISH =
  /\b(chicken|beef|pork|bacon|ham|lamb|pancetta|prosciutto|chorizo|sausage|mince|turkey|duck|fish|salmon|tuna|cod|haddock|mackerel|sardine|anchov(y|ies)|prawn|shrimp|crab|mussel|squid|gelatine?|lard)s?\b|fish sauce/i;
/** Dairy words; plant milks and butters and coconut cream are not dairy. */
const DAIRY = new RegExp(
  [
    String.raw`\b(buttermilk|cheese|cheddar|feta|mozzarella|parmesan|pecorino|yogurt|yoghurt|ghee|creme fraiche)\b`,
    String.raw`(?<!\b(peanut|almond|cashew|nut|cocoa|shea) )\bbutter\b`,
    String.raw`(?<!\bcoconut )\bcream\b`,
    String.raw`(?<!\b(coconut|oat|soy|soya|almond|rice) )\bmilk\b`,
  ].join("|"),
  "i",
);
/** Animal products a vegan recipe cannot hold, dairy aside. */
const EGG_OR_HONEY = /\b(eggs?|egg yolks?|egg whites?|mayonnaise|honey)\b/i;
/** Wheat, barley and the sauces made with them; tamari and cornflour are gluten-free. */
const GLUTEN =
  /\b(flour|bread|breadcrumbs|ciabatta|sourdough|pasta|spaghetti|penne|linguine|macaroni|noodles?|couscous|wheat|barley|soy sauce|miso|gochujang)\b/i;

const offenders = (holds: (recipe: Recipe) => boolean) => RECIPES.filter((recipe) => !holds(recipe)).map((recipe) => recipe.id);
const hasIngredient = (recipe: Recipe, words: RegExp) => recipe.ingredients.some((ingredient) => words.test(ingredient.name));
const mentionsRice = (recipe: Recipe) => /\brice\b/i.test(recipe.title) || hasIngredient(recipe, /\brice\b/i);

describe("the recipes shipped with the app", () => {
  it("number at least 40, with unique ids r-NNN in order and unique titles", () => {
    expect(RECIPES.length).toBeGreaterThanOrEqual(40);
    const ids = RECIPES.map((recipe) => recipe.id);
    expect(ids.filter((id) => !/^r-\d{3}$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    const titles = RECIPES.map((recipe) => recipe.title.toLowerCase());
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('has r-204 as "Egg fried rice"', () => {
    expect(RECIPES.find((recipe) => recipe.id === "r-204")?.title).toBe("Egg fried rice");
  });

  it("gives every recipe a one-sentence summary, sensible minutes and servings, and lowercase tags", () => {
    expect(offenders((recipe) => recipe.title.trim() !== "" && /^[^.!?]+[.!?]$/.test(recipe.summary))).toEqual([]);
    expect(offenders((recipe) => Number.isInteger(recipe.minutes) && recipe.minutes >= 5 && recipe.minutes <= 180)).toEqual([]);
    expect(offenders((recipe) => Number.isInteger(recipe.servings) && recipe.servings >= 1 && recipe.servings <= 8)).toEqual([]);
    expect(offenders((recipe) => recipe.tags.length > 0 && recipe.tags.every((tag) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(tag)))).toEqual([]);
  });

  it("gives every ingredient a positive quantity and a known unit", () => {
    expect(offenders((recipe) => recipe.ingredients.length >= 4 && recipe.ingredients.length <= 12)).toEqual([]);
    expect(
      offenders((recipe) =>
        recipe.ingredients.every(
          (ingredient) => ingredient.name.trim() !== "" && Number.isFinite(ingredient.quantity) && ingredient.quantity > 0 && UNITS.includes(ingredient.unit),
        ),
      ),
    ).toEqual([]);
  });

  it("gives every step text and a positive time, and the steps fit in the recipe's minutes", () => {
    expect(offenders((recipe) => recipe.steps.length >= 3 && recipe.steps.length <= 8)).toEqual([]);
    expect(offenders((recipe) => recipe.steps.every((step) => step.text.trim() !== "" && Number.isInteger(step.seconds) && step.seconds > 0))).toEqual([]);
    expect(offenders((recipe) => recipe.steps.reduce((total, step) => total + step.seconds, 0) <= recipe.minutes * 60)).toEqual([]);
  });

  it("uses only the known diets, each at most once, and calls every vegan recipe vegetarian", () => {
    const known: readonly string[] = DIETS;
    expect(offenders((recipe) => recipe.diets.every((diet) => known.includes(diet)))).toEqual([]);
    expect(offenders((recipe) => new Set(recipe.diets).size === recipe.diets.length)).toEqual([]);
    expect(offenders((recipe) => !recipe.diets.includes("vegan") || recipe.diets.includes("vegetarian"))).toEqual([]);
  });

  it("keeps meat and fish out of vegetarian and vegan recipes", () => {
    const meatFree = (recipe: Recipe) => !(recipe.diets.includes("vegetarian") || recipe.diets.includes("vegan")) || !hasIngredient(recipe, MEAT_OR_FISH);
    expect(offenders(meatFree)).toEqual([]);
  });

  it("keeps eggs, dairy and honey out of vegan recipes", () => {
    expect(offenders((recipe) => !recipe.diets.includes("vegan") || (!hasIngredient(recipe, EGG_OR_HONEY) && !hasIngredient(recipe, DAIRY)))).toEqual([]);
  });

  it("keeps gluten out of gluten-free recipes and dairy out of dairy-free ones", () => {
    expect(offenders((recipe) => !recipe.diets.includes("gluten-free") || !hasIngredient(recipe, GLUTEN))).toEqual([]);
    expect(offenders((recipe) => !recipe.diets.includes("dairy-free") || !hasIngredient(recipe, DAIRY))).toEqual([]);
  });

  it("offers a spread of diets", () => {
    const count = (diet: string) => RECIPES.filter((recipe) => recipe.diets.some((d) => d === diet)).length;
    expect(count("vegetarian")).toBeGreaterThanOrEqual(16);
    expect(count("vegan")).toBeGreaterThan(0);
    expect(count("gluten-free")).toBeGreaterThan(0);
    expect(count("dairy-free")).toBeGreaterThan(0);
    expect(RECIPES.filter((recipe) => !recipe.diets.includes("vegetarian")).length).toBeGreaterThan(0);
  });

  it("has at least 6 rice recipes, at least 3 of them ready in 20 minutes or less", () => {
    const rice = RECIPES.filter(mentionsRice);
    expect(rice.length).toBeGreaterThanOrEqual(6);
    expect(rice.filter((recipe) => recipe.minutes <= 20).length).toBeGreaterThanOrEqual(3);
  });

  it('tags every recipe made from cooked leftover rice "rice" and "leftovers"', () => {
    const leftoverRice = RECIPES.filter((recipe) => hasIngredient(recipe, /\bcooked rice\b.*\bleftover\b/i));
    expect(leftoverRice.length).toBeGreaterThanOrEqual(6);
    expect(leftoverRice.filter((recipe) => !(recipe.tags.includes("rice") && recipe.tags.includes("leftovers"))).map((recipe) => recipe.id)).toEqual([]);
  });
});
