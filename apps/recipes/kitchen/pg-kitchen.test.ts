import { afterAll, afterEach, describe, expect, it } from "vitest";
import { reachablePostgres, serverSchemas } from "../../../test/helpers/postgres.ts";
import { openPgDemoDatabase, type PgDemoDatabase } from "../../demo-database/pg-demo-database.ts";
import { RECIPES } from "../agent/index.ts";
import { createPgKitchen } from "./pg-kitchen.ts";

/** The Recipes kitchen on a real PostgreSQL, as several instances use it: a pool each, one schema. */

const server = await reachablePostgres();
if (!("url" in server)) console.info(`The Recipes kitchen on PostgreSQL: skipped. ${server.skipped}`);
const eggFriedRice = RECIPES.find((recipe) => recipe.id === "r-204")!;
const curry = RECIPES.find((recipe) => recipe.id === "r-243")!;

describe.skipIf(!("url" in server))("createPgKitchen", () => {
  const url = "url" in server ? server.url : "";
  const schemas = serverSchemas(url);
  const databases: PgDemoDatabase[] = [];
  const instance = async (schema: string) => {
    const database = await openPgDemoDatabase({ connectionString: url, schema });
    databases.push(database);
    return createPgKitchen({ database });
  };
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((database) => database.close()));
  });
  afterAll(async () => {
    await schemas.dropAll();
  });

  it("saves a recipe once, across instances, keeping the first time", async () => {
    const schema = schemas.make("kitchen_save");
    const [one, two] = await Promise.all([instance(schema), instance(schema)]);
    const first = await one.save("sam", eggFriedRice, new Date("2026-12-01T10:00:00Z"));
    const again = await two.save("sam", eggFriedRice, new Date("2026-12-01T11:00:00Z"));
    expect(first).toEqual({ entry: { recipeId: "r-204", title: "Egg fried rice", savedAt: "2026-12-01T10:00:00.000Z" }, alreadySaved: false });
    expect(again).toEqual({ ...first, alreadySaved: true });
    const raced = await Promise.all([one.save("vera", curry), two.save("vera", curry)]);
    expect(raced.map((result) => result.alreadySaved).sort()).toEqual([false, true]);
    expect(await two.cookbook("sam")).toEqual([first.entry]);
    expect(await one.remove("sam", "r-204")).toBe(true);
    expect(await two.remove("sam", "r-204")).toBe(false);
    expect(await one.cookbook("sam")).toEqual([]);
  });

  it("places one order per request id, whichever instance it is sent through and however often", async () => {
    const schema = schemas.make("kitchen_order");
    const [one, two] = await Promise.all([instance(schema), instance(schema)]);
    const order = { recipe: eggFriedRice, servings: eggFriedRice.servings * 2, requestId: "call_1" };
    const first = await one.placeOrder("sam", order);
    expect(first).toMatchObject({ repeated: false, order: { orderId: "O-00001", recipeId: "r-204", servings: eggFriedRice.servings * 2 } });
    expect(await two.placeOrder("sam", order)).toEqual({ order: first.order, repeated: true });
    // The same id for another order is refused, never answered with the first.
    await expect(two.placeOrder("sam", { recipe: curry, servings: 2, requestId: "call_1" })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("O-00001"),
    });
    // Sent through both at the same moment, many times over: each request id placed once.
    for (let round = 0; round < 10; round++) {
      const same = { recipe: curry, servings: 2, requestId: `call_race_${round}` };
      const results = await Promise.all([one.placeOrder("sam", same), two.placeOrder("sam", same), one.placeOrder("sam", same)]);
      expect(results.filter((result) => !result.repeated)).toHaveLength(1);
      expect(new Set(results.map((result) => result.order.orderId)).size).toBe(1);
    }
    const orders = await two.orders("sam");
    expect(orders).toHaveLength(11);
    expect(orders.at(-1)).toEqual(first.order);
    expect(await one.orders("vera")).toEqual([]);
  });

  it("keeps the cookbook and the orders for an instance started later", async () => {
    const schema = schemas.make("kitchen_later");
    const before = await instance(schema);
    await before.save("sam", eggFriedRice);
    await before.placeOrder("sam", { recipe: eggFriedRice, servings: 2, requestId: "call_1" });
    const after = await instance(schema);
    expect((await after.cookbook("sam")).map((entry) => entry.recipeId)).toEqual(["r-204"]);
    expect((await after.placeOrder("sam", { recipe: eggFriedRice, servings: 2, requestId: "call_1" })).repeated).toBe(true);
  });
});
