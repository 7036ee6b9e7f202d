import type { Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { DESKTOP, SCREENSHOTS, apiGet, ask, countPosts, lastActivity, lastReply, openRecipes } from "./recipes.ts";

const ORDER_FOR_FOUR = "order the ingredients for egg fried rice for 4";

/** Sam's orders, as the Recipes API lists them. */
async function orders(page: Parameters<typeof apiGet>[0]): Promise<Array<{ orderId: string; recipeId: string; servings: number }>> {
  return (await apiGet(page, "/orders")).body.orders;
}

describe("ordering ingredients in Recipes, in Chromium", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 2 } });

  it("asks first, orders nothing before the approval, and orders exactly once after it", async () => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "sam");
    const before = await orders(page);
    const posts = countPosts(page, "/orders");
    await ask(page, ORDER_FOR_FOUR);
    const card = page.getByRole("group", { name: "Approval needed" });
    await card.waitFor();
    expect(await lastReply(page, /once you approve\.$/)).toBe("I'll order the ingredients for Egg fried rice (4 servings) once you approve.");
    // The page words the question: the recipe by its title, not the server's "Allow order_ingredients with {…}".
    await expect.poll(() => card.getByRole("paragraph").first().textContent()).toBe("Order the ingredients for Egg fried rice (4 servings)?");
    expect(await lastActivity(page, "order_ingredients")).toMatchObject({ status: "awaiting" });
    expect(await orders(page)).toEqual(before);
    expect(posts()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}/recipes-order-approval.png` });

    await card.getByRole("button", { name: "Approve" }).click();
    const reply = await lastReply(page, /Your order number is/);
    const after = await orders(page);
    expect(after).toHaveLength(before.length + 1);
    expect(after[0]).toMatchObject({ recipeId: "r-204", servings: 4 });
    expect(reply).toBe(`Ordered the ingredients for Egg fried rice (4 servings). Your order number is ${after[0]!.orderId}.`);
    expect(posts()).toBe(1);
    expect(await card.count()).toBe(0);
    expect(await lastActivity(page, "order_ingredients")).toMatchObject({ status: "succeeded" });

    // The order is on the cookbook page, with what it holds, scaled to four.
    await page.getByRole("link", { name: "Cookbook" }).click();
    const items = page.getByRole("list", { name: `Items of ${after[0]!.orderId}` }).getByRole("listitem");
    await expect.poll(() => items.allTextContents()).toContain("6 eggs");
    await page.screenshot({ path: `${SCREENSHOTS}/recipes-orders.png` });
    await context.close();
  });

  it("orders nothing when the person rejects, and says so", async () => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "sam");
    const before = await orders(page);
    const posts = countPosts(page, "/orders");
    await ask(page, "order the ingredients for egg fried rice for 2");
    const card = page.getByRole("group", { name: "Approval needed" });
    await card.getByRole("textbox", { name: "Comment (optional)" }).fill("we have rice");
    await card.getByRole("button", { name: "Reject" }).click();
    expect(await lastReply(page, /didn't order/)).toBe(`I didn't order anything: the order was declined ("we have rice").`);
    expect(await orders(page)).toEqual(before);
    expect(posts()).toBe(0);
    await context.close();
  });

  it("comes back after a reload while the approval waits, and after one while the order is on its way: one order, said once", async () => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "sam");
    const before = await orders(page);
    const posts = countPosts(page, "/orders");
    await ask(page, ORDER_FOR_FOUR);
    await page.getByRole("group", { name: "Approval needed" }).waitFor();
    await lastReply(page, /once you approve\.$/);

    // Reload while the approval waits: the conversation and the question are back, and nothing ran.
    await page.reload();
    const card = page.getByRole("group", { name: "Approval needed" });
    await card.waitFor();
    const log = page.getByRole("log", { name: "Conversation" });
    await expect.poll(() => log.textContent()).toContain(ORDER_FOR_FOUR);
    expect(await lastReply(page, /once you approve\.$/)).toBe("I'll order the ingredients for Egg fried rice (4 servings) once you approve.");
    await expect.poll(() => card.getByRole("paragraph").first().textContent()).toBe("Order the ingredients for Egg fried rice (4 servings)?");
    expect(await orders(page)).toEqual(before);

    // Approve; the order reaches the shop, but the page reloads before it hears back.
    let placed!: () => void;
    const reachedShop = new Promise<void>((resolve) => (placed = resolve));
    await page.route(
      "**/api/recipes/orders",
      async (route: Route) => {
        await route.fetch(); // the server places the order …
        placed(); // … and the page never sees the answer
      },
      { times: 1 },
    );
    await card.getByRole("button", { name: "Approve" }).click();
    await reachedShop;
    expect(await orders(page)).toHaveLength(before.length + 1);
    await page.reload();

    // The reloaded page runs the call again with the same request id: the shop finds the first order.
    const reply = await lastReply(page, /Your order number is/, 30_000);
    const after = await orders(page);
    expect(after).toHaveLength(before.length + 1);
    expect(reply).toBe(`Ordered the ingredients for Egg fried rice (4 servings). Your order number is ${after[0]!.orderId}.`);
    expect(posts()).toBe(2);
    expect(await page.getByRole("group", { name: "Approval needed" }).count()).toBe(0);
    // Said once: one question, one answer, in the conversation.
    expect(await log.getByRole("article", { name: "You said" }).allTextContents()).toEqual([ORDER_FOR_FOUR]);
    expect((await log.getByRole("article", { name: "Assistant said" }).allTextContents()).filter((text) => text.startsWith("Ordered"))).toHaveLength(1);
    await page.screenshot({ path: `${SCREENSHOTS}/recipes-reload.png` });
    // A quiet moment later, still one.
    await page.waitForTimeout(500);
    expect(await orders(page)).toHaveLength(before.length + 1);
    await context.close();
  });
});
