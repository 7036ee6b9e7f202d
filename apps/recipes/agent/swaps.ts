/** What works instead of an ingredient, for people who do not eat it or have run out. */
export interface IngredientSwap {
  ingredient: string;
  swap: string;
  note?: string;
}

const SWAPS: Array<{ match: RegExp; swap: string; note?: string }> = [
  { match: /\beggs?\b/, swap: "silken tofu", note: "no eggs? tofu works too" },
  { match: /\bchicken\b/, swap: "firm tofu", note: "press it dry and fry it hot" },
  { match: /\bbeef\b|\bmince\b/, swap: "mushrooms and lentils", note: "brown the mushrooms well for depth" },
  { match: /\bpork\b|\bsausages?\b/, swap: "smoked tofu", note: "adds the smokiness back" },
  { match: /\bbacon\b|\bham\b/, swap: "smoked tempeh", note: "crisp it in the pan" },
  { match: /\bprawns?\b|\bshrimps?\b/, swap: "king oyster mushrooms", note: "slice into rounds" },
  { match: /\bfish sauce\b/, swap: "soy sauce with a pinch of seaweed", note: "keeps the savoury depth" },
  { match: /\bsalmon\b|\btuna\b|\bcod\b|\bfish\b/, swap: "marinated tofu", note: "or chickpeas for a salad" },
  { match: /\blamb\b/, swap: "green lentils", note: "simmer them a little longer" },
  { match: /\banchov(y|ies)\b/, swap: "capers", note: "for the salty bite" },
  { match: /\bbutter\b/, swap: "olive oil", note: "about three quarters of the amount" },
  { match: /\bmilk\b/, swap: "oat milk" },
  { match: /\bcream\b/, swap: "coconut cream" },
  { match: /\byogh?urt\b/, swap: "coconut yogurt" },
  { match: /\bcheese\b|\bparmesan\b|\bfeta\b|\bmozzarella\b|\bcheddar\b/, swap: "nutritional yeast", note: "for the cheesy note" },
  { match: /\bhoney\b/, swap: "maple syrup" },
  { match: /\bgelatine?\b/, swap: "agar", note: "use a third of the amount" },
];

/** Words that mean meat or fish: what a vegetarian swaps without being asked. */
const NOT_VEGETARIAN = /\b(chicken|beef|mince|pork|sausages?|bacon|ham|prawns?|shrimps?|fish sauce|salmon|tuna|cod|fish|lamb|anchov(y|ies)|gelatine?)\b/;

/** The swap for one ingredient, if there is one. */
export function swapFor(ingredient: string): IngredientSwap | undefined {
  const name = ingredient.toLowerCase();
  const found = SWAPS.find((entry) => entry.match.test(name));
  return found ? { ingredient, swap: found.swap, ...(found.note ? { note: found.note } : {}) } : undefined;
}

/** Swaps for every ingredient of a list that has one; only meat and fish when `meatOnly`. */
export function swapsFor(ingredients: readonly string[], options: { meatOnly?: boolean } = {}): IngredientSwap[] {
  const seen = new Set<string>();
  const swaps: IngredientSwap[] = [];
  for (const ingredient of ingredients) {
    if (options.meatOnly && !NOT_VEGETARIAN.test(ingredient.toLowerCase())) continue;
    const swap = swapFor(ingredient);
    if (!swap || seen.has(swap.swap)) continue;
    seen.add(swap.swap);
    swaps.push(swap);
  }
  return swaps;
}
