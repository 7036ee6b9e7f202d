import type { Diet } from "./recipe.ts";

/** What a person asked the recipe assistant, as the offline playbook reads it. */
export type RecipesIntent =
  | { kind: "find"; query: string; diet?: Diet; maxMinutes?: number }
  | { kind: "show" }
  | { kind: "save" }
  /** `servings` as said: a whole number, or what was said instead ("1.5"), for the playbook to refuse. */
  | { kind: "order"; servings?: number; unclearServings?: string }
  | { kind: "timer"; seconds?: number; step?: number }
  | { kind: "swap"; ingredient?: string }
  | { kind: "greet" }
  | { kind: "help" }
  | { kind: "unknown" };

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

/** "3" or "three" as a number; undefined for anything else. */
export function readNumber(word: string | undefined): number | undefined {
  if (!word) return undefined;
  const value = /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word.toLowerCase()];
  return value !== undefined && value > 0 ? value : undefined;
}

const NUMBER = "(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)";
const FOOD_WORDS =
  /\b(recipe|recipes|cook|cooking|dinner|lunch|breakfast|brunch|dessert|snack|meal|idea|ideas|something|quick|leftover|leftovers|soup|salad|pasta|rice|curry|bake|baking|vegetarian|vegan|gluten|dairy|eggs?|tofu|chicken|beef|fish|noodles?|bread|cake)\b/;

// Asking for one recipe's card or its method: "show me how to make r-204", "how do I make egg fried rice", "recipe card for …".
const SHOW =
  /\b(show me|tell me about|open|walk me through|how (?:do|can|should|would) (?:i|you|we) (?:make|cook)|how to (?:make|cook)|recipe card|as a card|(?:show|display) (?:the |a )?recipe (?:for|of))\b/;

export function readIntent(text: string): RecipesIntent {
  const said = text.toLowerCase().trim();
  if (/\b(timer|count ?down|remind me)\b/.test(said)) return { kind: "timer", ...duration(said), ...stepNumber(said) };
  if (/\b(save|bookmark|keep)\b|\bcookbook\b/.test(said)) return { kind: "save" };
  if (/\b(order|buy|deliver|delivery|groceries|shopping)\b/.test(said)) {
    const fraction = said.match(/\b(?:for )?(\d+[.,]\d+)(?: (?:servings|people|portions))?\b/)?.[1];
    if (fraction) return { kind: "order", unclearServings: fraction };
    const servings = readNumber(
      said.match(new RegExp(`\\bfor ${NUMBER}\\b`))?.[1] ?? said.match(new RegExp(`\\b${NUMBER} (?:servings|people|portions)\\b`))?.[1],
    );
    return { kind: "order", ...(servings ? { servings } : {}) };
  }
  const swapped =
    said.match(/\binstead of (?:the )?([a-z ]+?)(?:\?|$|,|\.| in\b)/)?.[1] ??
    said.match(/\b(?:no|without|out of|don't have|do not have|don't eat|do not eat|swap|substitute for|replace) (?:the |any )?([a-z]+)/)?.[1];
  if (swapped || /\b(swaps?|substitut\w*|replace|make it vegan|make it vegetarian)\b/.test(said)) {
    return { kind: "swap", ...(swapped && !["it", "a", "the"].includes(swapped) ? { ingredient: swapped.trim() } : {}) };
  }
  if (/\br-\d{3}\b/.test(said) || SHOW.test(said)) return { kind: "show" };
  if (/^(hi|hello|hey|good (morning|evening|afternoon))\b/.test(said)) return { kind: "greet" };
  if (/\b(help|what can you do)\b/.test(said)) return { kind: "help" };
  if (FOOD_WORDS.test(said)) return find(said);
  return { kind: "unknown" };
}

function find(said: string): RecipesIntent {
  const minutes = said.match(/\b(?:under|in|within|less than) (\d+) ?(?:min|minutes|mins)\b/)?.[1];
  const quick = /\b(quick|fast|speedy)\b/.test(said);
  const diet = (["vegetarian", "vegan", "gluten-free", "dairy-free"] as const).find((word) => said.includes(word));
  const query = said
    .replace(/\b(?:under|in|within|less than) \d+ ?(?:min|minutes|mins)\b/g, " ")
    .replace(/\b(quick|fast|speedy|vegetarian|vegan|gluten-free|dairy-free)\b/g, " ")
    .replace(/[^a-z0-9 -]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { kind: "find", query, ...(diet ? { diet } : {}), ...(minutes ? { maxMinutes: Number(minutes) } : quick ? { maxMinutes: 20 } : {}) };
}

function duration(said: string): { seconds?: number } {
  const match = said.match(new RegExp(`\\b${NUMBER} ?(seconds?|secs?|minutes?|mins?|hours?)\\b`));
  const amount = readNumber(match?.[1]);
  if (!amount || !match?.[2]) return {};
  const unit = match[2].startsWith("h") ? 3600 : match[2].startsWith("m") ? 60 : 1;
  return { seconds: amount * unit };
}

function stepNumber(said: string): { step?: number } {
  const step = readNumber(said.match(new RegExp(`\\bstep ${NUMBER}\\b`))?.[1]);
  return step ? { step } : {};
}
