import { afterEach, describe, expect, it } from "vitest";
import { RECIPES } from "../agent/index.ts";
import { createSqliteKitchen, type Kitchen } from "./sqlite-kitchen.ts";

const eggFriedRice = RECIPES.find((recipe) => recipe.id === "r-204")!;
let kitchen: Kitchen;
afterEach(() => kitchen.closeDatabase());

describe("the SQLite kitchen's orders", () => {
  it("places one order per requestId: the same request again gets the first order back, repeated", async () => {
    kitchen = createSqliteKitchen({ filename: ":memory:" });
    const first = await kitchen.placeOrder("sam", { recipe: eggFriedRice, servings: 4, requestId: "call_1" });
    const again = await kitchen.placeOrder("sam", { recipe: eggFriedRice, servings: 4, requestId: "call_1" });
    expect(first).toMatchObject({ repeated: false, order: { orderId: "O-00001", recipeId: "r-204", servings: 4 } });
    expect(again).toEqual({ order: first.order, repeated: true });
    expect(await kitchen.orders("sam")).toEqual([first.order]);
  });

  it("numbers orders without gaps, however many requests were repeated", async () => {
    kitchen = createSqliteKitchen({ filename: ":memory:" });
    await kitchen.placeOrder("sam", { recipe: eggFriedRice, servings: 2, requestId: "call_1" });
    await kitchen.placeOrder("sam", { recipe: eggFriedRice, servings: 2, requestId: "call_1" });
    await kitchen.placeOrder("sam", { recipe: eggFriedRice, servings: 2, requestId: "call_1" });
    const next = await kitchen.placeOrder("sam", { recipe: eggFriedRice, servings: 2, requestId: "call_2" });
    expect(next.order.orderId).toBe("O-00002");
  });

  it("keeps each user's requestIds apart", async () => {
    kitchen = createSqliteKitchen({ filename: ":memory:" });
    const sam = await kitchen.placeOrder("sam", { recipe: eggFriedRice, servings: 2, requestId: "call_1" });
    const vera = await kitchen.placeOrder("vera", { recipe: eggFriedRice, servings: 3, requestId: "call_1" });
    expect(vera).toMatchObject({ repeated: false, order: { servings: 3 } });
    expect(vera.order.orderId).not.toBe(sam.order.orderId);
    expect(await kitchen.orders("sam")).toEqual([sam.order]);
  });
});
