import { TetherError } from "@tether-agent/tether/protocol";
import type { Ingredient, Recipe } from "../agent/index.ts";

/** A recipe someone saved. */
export interface CookbookEntry {
  recipeId: string;
  title: string;
  savedAt: string;
}

/** A (demo) grocery order: the recipe's ingredients scaled to the servings ordered. */
export interface GroceryOrder {
  orderId: string;
  recipeId: string;
  title: string;
  servings: number;
  items: Ingredient[];
  placedAt: string;
}

/**
 * The Recipes app's own data: each user's cookbook and grocery orders. The
 * agent never touches it; the browser's tools go through the app's API.
 */
export interface Kitchen {
  cookbook(userId: string): Promise<CookbookEntry[]>;
  /** Saves once; saving again changes nothing and says so. */
  save(userId: string, recipe: Recipe, now?: Date): Promise<{ entry: CookbookEntry; alreadySaved: boolean }>;
  remove(userId: string, recipeId: string): Promise<boolean>;
  orders(userId: string): Promise<GroceryOrder[]>;
  /**
   * Places an order once per `requestId` (the tool call that asked for it): a
   * retried request gets the first order back, `repeated`, and nothing new; the
   * same id with another recipe or servings is refused (`invalid_input`).
   */
  placeOrder(userId: string, order: { recipe: Recipe; servings: number; requestId: string }, now?: Date): Promise<{ order: GroceryOrder; repeated: boolean }>;
}

/** An order's number as people see it, from the order's sequence number. */
export function orderNumber(seq: number | string): string {
  return `O-${String(seq).padStart(5, "0")}`;
}

/** A request id that already placed another order: never answered with that order, which the caller would report as placed. */
export function otherOrderRefused(requestId: string, placed: GroceryOrder): TetherError {
  return new TetherError(
    "invalid_input",
    `Request ${requestId} already placed order ${placed.orderId} (${placed.title}, ${placed.servings} servings); a different order needs its own request id.`,
  );
}

/** The recipe's ingredients for `servings`, rounded to what a shop sells (whole eggs, 5 g steps). */
export function scaleIngredients(recipe: Recipe, servings: number): Ingredient[] {
  const factor = servings / recipe.servings;
  return recipe.ingredients.map((ingredient) => {
    const exact = ingredient.quantity * factor;
    const quantity =
      ingredient.unit === ""
        ? Math.ceil(exact)
        : ingredient.unit === "g" || ingredient.unit === "ml"
          ? Math.ceil(exact / 5) * 5
          : Math.round(exact * 4) / 4 || 0.25;
    return { ...ingredient, quantity };
  });
}

/** An order as both databases keep it (`recipes_orders`). */
export interface OrderRow {
  /** A number in SQLite; PostgreSQL's bigint, which its driver reads as a string. */
  seq: number | string;
  recipe_id: string;
  title: string;
  servings: number;
  items: string;
  placed_at: string;
}

/** A stored row as the app's order. */
export function toOrder(row: OrderRow): GroceryOrder {
  return {
    orderId: orderNumber(row.seq),
    recipeId: row.recipe_id,
    title: row.title,
    servings: row.servings,
    items: JSON.parse(row.items) as Ingredient[],
    placedAt: row.placed_at,
  };
}
