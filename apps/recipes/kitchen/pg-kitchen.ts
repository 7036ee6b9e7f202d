import type { PgDemoDatabase } from "../../demo-database/pg-demo-database.ts";
import type { Recipe } from "../agent/index.ts";
import { otherOrderRefused, scaleIngredients, toOrder, type Kitchen, type OrderRow } from "./kitchen.ts";

/**
 * The kitchen in PostgreSQL, for several instances on one database: a
 * cookbook saved through one reads saved through all, and an order's request
 * id is unique per user in the table, so the same order sent twice, or
 * through two instances at once, is placed once (the database admits one
 * insert; the other finds it). The same semantics as the SQLite kitchen.
 */
export async function createPgKitchen(options: { database: PgDemoDatabase }): Promise<Kitchen> {
  const { database } = options;
  const cookbook = `${database.schema}.recipes_cookbook`;
  const orders = `${database.schema}.recipes_orders`;
  await database.setUp("prepare the Recipes kitchen", async (query) => {
    await query(`CREATE TABLE IF NOT EXISTS ${cookbook} (
      user_id text NOT NULL,
      recipe_id text NOT NULL,
      title text NOT NULL,
      saved_at text NOT NULL,
      PRIMARY KEY (user_id, recipe_id)
    )`);
    await query(`CREATE TABLE IF NOT EXISTS ${orders} (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id text NOT NULL,
      request_id text NOT NULL,
      recipe_id text NOT NULL,
      title text NOT NULL,
      servings integer NOT NULL,
      items text NOT NULL,
      placed_at text NOT NULL,
      UNIQUE (user_id, request_id)
    )`);
  });

  const placedFor = async (userId: string, requestId: string) =>
    (await database.query<OrderRow>(`read order ${requestId}`, `SELECT * FROM ${orders} WHERE user_id = $1 AND request_id = $2`, [userId, requestId]))[0];
  /** The order a request id placed before: given back as `repeated` when it is this order, refused when it is another. */
  const repeatedOrRefused = (placed: OrderRow, recipe: Recipe, servings: number, requestId: string) => {
    if (placed.recipe_id !== recipe.id || placed.servings !== servings) throw otherOrderRefused(requestId, toOrder(placed));
    return { order: toOrder(placed), repeated: true };
  };

  return {
    async cookbook(userId) {
      const rows = await database.query<{ recipe_id: string; title: string; saved_at: string }>(
        "read the cookbook",
        `SELECT recipe_id, title, saved_at FROM ${cookbook} WHERE user_id = $1 ORDER BY saved_at DESC, recipe_id`,
        [userId],
      );
      return rows.map((row) => ({ recipeId: row.recipe_id, title: row.title, savedAt: row.saved_at }));
    },
    async save(userId, recipe, now = new Date()) {
      const inserted = await database.query(
        `save ${recipe.id}`,
        `INSERT INTO ${cookbook} (user_id, recipe_id, title, saved_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1`,
        [userId, recipe.id, recipe.title, now.toISOString()],
      );
      // A statement of its own: it sees the row a racing save committed, which the insert's snapshot could not.
      const [row] = await database.query<{ title: string; saved_at: string }>(
        `save ${recipe.id}`,
        `SELECT title, saved_at FROM ${cookbook} WHERE user_id = $1 AND recipe_id = $2`,
        [userId, recipe.id],
      );
      return { entry: { recipeId: recipe.id, title: row!.title, savedAt: row!.saved_at }, alreadySaved: inserted.length === 0 };
    },
    async remove(userId, recipeId) {
      const removed = await database.query(`remove ${recipeId}`, `DELETE FROM ${cookbook} WHERE user_id = $1 AND recipe_id = $2 RETURNING 1`, [
        userId,
        recipeId,
      ]);
      return removed.length === 1;
    },
    async orders(userId) {
      const rows = await database.query<OrderRow>("read the orders", `SELECT * FROM ${orders} WHERE user_id = $1 ORDER BY seq DESC`, [userId]);
      return rows.map(toOrder);
    },
    async placeOrder(userId, { recipe, servings, requestId }, now = new Date()) {
      // Looked up first: an insert that conflicts would still use up an order number.
      const before = await placedFor(userId, requestId);
      if (before) return repeatedOrRefused(before, recipe, servings, requestId);
      const [placed] = await database.query<OrderRow>(
        `order ${recipe.id}`,
        `INSERT INTO ${orders} (user_id, request_id, recipe_id, title, servings, items, placed_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (user_id, request_id) DO NOTHING RETURNING *`,
        [userId, requestId, recipe.id, recipe.title, servings, JSON.stringify(scaleIngredients(recipe, servings)), now.toISOString()],
      );
      if (placed) return { order: toOrder(placed), repeated: false };
      // Another instance placed it between the look-up and the insert: the database kept theirs.
      return repeatedOrRefused((await placedFor(userId, requestId))!, recipe, servings, requestId);
    },
  };
}
