import type { Recipe } from "./api.ts";

type Ingredient = Recipe["ingredients"][number];

const FRACTIONS: Record<string, string> = { "0.25": "¼", "0.5": "½", "0.75": "¾" };

/** "400 g", "3", "1½ tbsp": an ingredient's amount as a cook reads it. */
export function quantity({ quantity: amount, unit }: Ingredient): string {
  const whole = Math.floor(amount);
  const fraction = FRACTIONS[String(Math.round((amount - whole) * 100) / 100)];
  const number = fraction ? `${whole > 0 ? whole : ""}${fraction}` : String(Math.round(amount * 100) / 100);
  return unit ? `${number} ${unit}` : number;
}

/** A step's duration in words: "30 s", "3 min", "1 h 20 min". */
export function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
}
