import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RECIPES } from "../agent/index.ts";
import { createSqliteKitchen, type SqliteKitchen } from "./sqlite-kitchen.ts";

const eggFriedRice = RECIPES.find((recipe) => recipe.id === "r-204")!;
const open: SqliteKitchen[] = [];
const kitchen = (filename = ":memory:") => {
  const created = createSqliteKitchen({ filename });
  open.push(created);
  return created;
};
afterEach(() => {
  for (const each of open.splice(0)) each.closeDatabase();
});

describe("the Recipes kitchen", () => {
  it("saves a recipe once: saving again says it was already there and keeps the first time", async () => {
    const k = kitchen();
    const first = await k.save("sam", eggFriedRice, new Date("2026-12-01T10:00:00Z"));
    const again = await k.save("sam", eggFriedRice, new Date("2026-12-01T11:00:00Z"));
    expect(first).toEqual({ entry: { recipeId: "r-204", title: "Egg fried rice", savedAt: "2026-12-01T10:00:00.000Z" }, alreadySaved: false });
    expect(again).toEqual({ ...first, alreadySaved: true });
    expect(await k.cookbook("sam")).toEqual([first.entry]);
    expect(await k.cookbook("vera"), "a cookbook is its owner's").toEqual([]);
    expect(await k.remove("sam", "r-204")).toBe(true);
    expect(await k.remove("sam", "r-204")).toBe(false);
    expect(await k.cookbook("sam")).toEqual([]);
  });

  it("places one order per request id, scaled to the servings, whatever the retries", async () => {
    const k = kitchen();
    const first = await k.placeOrder("sam", { recipe: eggFriedRice, servings: eggFriedRice.servings * 2, requestId: "call_1" });
    const retried = await k.placeOrder("sam", { recipe: eggFriedRice, servings: eggFriedRice.servings * 2, requestId: "call_1" });
    expect(first.repeated).toBe(false);
    expect(retried).toEqual({ order: first.order, repeated: true });
    expect(first.order).toMatchObject({ orderId: "O-00001", recipeId: "r-204", servings: eggFriedRice.servings * 2 });
    for (const [index, item] of first.order.items.entries()) {
      const original = eggFriedRice.ingredients[index]!;
      expect(item.name).toBe(original.name);
      expect(item.quantity, item.name).toBeGreaterThanOrEqual(original.quantity * 2 - 0.25);
    }
    // The same request id for another order is refused, never answered with the first order.
    const other = RECIPES.find((recipe) => recipe.id === "r-243")!;
    await expect(k.placeOrder("sam", { recipe: other, servings: 2, requestId: "call_1" })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("O-00001"),
    });
    await expect(k.placeOrder("sam", { recipe: eggFriedRice, servings: 1, requestId: "call_1" })).rejects.toMatchObject({ code: "invalid_input" });
    const second = await k.placeOrder("sam", { recipe: eggFriedRice, servings: 1, requestId: "call_2" });
    expect(second.order.orderId).toBe("O-00002");
    expect((await k.orders("sam")).map((order) => order.orderId)).toEqual(["O-00002", "O-00001"]);
    expect(await k.orders("vera")).toEqual([]);
  });

  it("keeps the cookbook and the orders across a restart on the same file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tether-kitchen-"));
    try {
      const filename = join(dir, "tether.db");
      const before = kitchen(filename);
      await before.save("sam", eggFriedRice);
      await before.placeOrder("sam", { recipe: eggFriedRice, servings: 2, requestId: "call_1" });
      before.closeDatabase();
      open.splice(open.indexOf(before), 1);
      const after = kitchen(filename);
      expect((await after.cookbook("sam")).map((entry) => entry.recipeId)).toEqual(["r-204"]);
      expect((await after.placeOrder("sam", { recipe: eggFriedRice, servings: 2, requestId: "call_1" })).repeated).toBe(true);
    } finally {
      for (const each of open.splice(0)) each.closeDatabase();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
