import type { Ingredient } from "./recipe.ts";

/** How the Recipes playbook words numbers, lengths, ordinals and amounts in what it says. */

/** "the first one", "the 2nd": which of the cards offered last. */
export const ORDINALS = [/\b(first|1st)\b/, /\b(second|2nd)\b/, /\b(third|3rd)\b/];

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** At most `length` characters, cut at a word. */
export function clip(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > 0 ? cut.slice(0, space) : cut}…`;
}

/** "5-minute", "90-second", "1-hour": a duration as an adjective. */
export function spoken(seconds: number): string {
  if (seconds % 60 !== 0) return `${seconds}-second`;
  const minutes = seconds / 60;
  return minutes % 60 === 0 ? `${minutes / 60}-hour` : `${minutes}-minute`;
}

/** "400 g cooked rice", "3 eggs": an ingredient with its amount. */
export function amountOf(ingredient: Ingredient): string {
  return `${ingredient.quantity}${ingredient.unit ? ` ${ingredient.unit}` : ""} ${ingredient.name}`;
}
