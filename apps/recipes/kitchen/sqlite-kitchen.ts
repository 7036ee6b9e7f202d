import { openSqliteDatabase, sqliteAttempt } from "@tether-agent/tether/sqlite";
import type { Recipe } from "../agent/index.ts";
import { otherOrderRefused, scaleIngredients, toOrder, type Kitchen, type OrderRow } from "./kitchen.ts";

/** The kitchen in a SQLite file, whose handle it holds. */
export interface SqliteKitchen extends Kitchen {
  closeDatabase(): void;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS recipes_cookbook (
  user_id TEXT NOT NULL,
  recipe_id TEXT NOT NULL,
  title TEXT NOT NULL,
  saved_at TEXT NOT NULL,
  PRIMARY KEY (user_id, recipe_id)
);
CREATE TABLE IF NOT EXISTS recipes_orders (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  recipe_id TEXT NOT NULL,
  title TEXT NOT NULL,
  servings INTEGER NOT NULL,
  items TEXT NOT NULL,
  placed_at TEXT NOT NULL,
  UNIQUE (user_id, request_id)
);
`;

/**
 * The kitchen in SQLite; the demo keeps it in Tether's own file. Every
 * statement goes through `sqliteAttempt`, so a locked database waits without
 * blocking and storage trouble is `store_unavailable`.
 */
export function createSqliteKitchen(options: { filename: string; waitMs?: number }): SqliteKitchen {
  const db = openSqliteDatabase(options.filename);
  const attempt = <T>(what: string, operation: () => T) =>
    sqliteAttempt(operation, { what, ...(options.waitMs !== undefined ? { waitMs: options.waitMs } : {}) });
  try {
    db.exec(SCHEMA);
  } catch (error) {
    db.close();
    throw error;
  }
  const statements = {
    cookbook: db.prepare<[string], { recipe_id: string; title: string; saved_at: string }>(
      "SELECT recipe_id, title, saved_at FROM recipes_cookbook WHERE user_id = ? ORDER BY saved_at DESC, recipe_id",
    ),
    save: db.prepare<[string, string, string, string], unknown>(
      "INSERT INTO recipes_cookbook (user_id, recipe_id, title, saved_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ),
    saved: db.prepare<[string, string], { saved_at: string; title: string }>(
      "SELECT saved_at, title FROM recipes_cookbook WHERE user_id = ? AND recipe_id = ?",
    ),
    remove: db.prepare<[string, string], unknown>("DELETE FROM recipes_cookbook WHERE user_id = ? AND recipe_id = ?"),
    orders: db.prepare<[string], OrderRow>("SELECT * FROM recipes_orders WHERE user_id = ? ORDER BY seq DESC"),
    order: db.prepare<[string, string], OrderRow>("SELECT * FROM recipes_orders WHERE user_id = ? AND request_id = ?"),
    place: db.prepare<[string, string, string, string, number, string, string], unknown>(
      "INSERT INTO recipes_orders (user_id, request_id, recipe_id, title, servings, items, placed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
  };
  const saveOnce = db.transaction((userId: string, recipe: Recipe, at: string) => {
    const inserted = (statements.save.run(userId, recipe.id, recipe.title, at) as { changes: number }).changes === 1;
    const row = statements.saved.get(userId, recipe.id)!;
    return { entry: { recipeId: recipe.id, title: row.title, savedAt: row.saved_at }, alreadySaved: !inserted };
  });
  const placeOnce = db.transaction((userId: string, recipe: Recipe, servings: number, requestId: string, at: string) => {
    // Looked up first: an insert that conflicts would still use up an order number.
    const placed = statements.order.get(userId, requestId);
    if (placed && (placed.recipe_id !== recipe.id || placed.servings !== servings)) {
      throw otherOrderRefused(requestId, toOrder(placed));
    }
    if (placed) return { order: toOrder(placed), repeated: true };
    statements.place.run(userId, requestId, recipe.id, recipe.title, servings, JSON.stringify(scaleIngredients(recipe, servings)), at);
    return { order: toOrder(statements.order.get(userId, requestId)!), repeated: false };
  });
  return {
    cookbook: (userId) =>
      attempt("read the cookbook", () => statements.cookbook.all(userId).map((row) => ({ recipeId: row.recipe_id, title: row.title, savedAt: row.saved_at }))),
    save: (userId, recipe, now = new Date()) => attempt(`save ${recipe.id}`, () => saveOnce.immediate(userId, recipe, now.toISOString())),
    remove: (userId, recipeId) => attempt(`remove ${recipeId}`, () => (statements.remove.run(userId, recipeId) as { changes: number }).changes === 1),
    orders: (userId) => attempt("read the orders", () => statements.orders.all(userId).map(toOrder)),
    placeOrder: (userId, { recipe, servings, requestId }, now = new Date()) =>
      attempt(`order ${recipe.id}`, () => placeOnce.immediate(userId, recipe, servings, requestId, now.toISOString())),
    closeDatabase: () => db.close(),
  };
}
