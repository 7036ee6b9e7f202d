import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { DESKTOP, SCREENSHOTS, apiGet, ask, lastActivity, lastCards, lastReply, openRecipes, recordRuns, switchProfile } from "./recipes.ts";
import { TETHER_COMMAND } from "../helpers/tether-command.ts";

const run = promisify(execFile);

describe("Recipes on a desktop, in Chromium", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 2 } });

  it("offers at most three clickable cards, in a row, and opens the one clicked with its steps", async () => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "sam");
    const runs = recordRuns(page);
    await ask(page, "Something quick with leftover rice?");
    await lastReply(page, /ideas:$/);

    // The desktop frontend words offer_recipes "at most three": the agent followed it.
    expect(runs[0]!.tools.find((tool) => tool.name === "offer_recipes")!.description).toMatch(/at most three/);
    const cards = lastCards(page);
    const count = await cards.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(3);
    const titles = await cards.evaluateAll((buttons) => buttons.map((button) => button.querySelector(".card__title")?.textContent));
    expect(titles).toContain("Egg fried rice");
    // Three in a row: every card at the same height on the screen.
    const tops = await cards.evaluateAll((buttons) => buttons.map((button) => Math.round(button.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    await expect.poll(() => cards.first().textContent()).toMatch(/15 min/);
    expect(await lastActivity(page, "offer_recipes")).toEqual({ status: "succeeded", text: expect.stringContaining("succeeded") });
    await page.screenshot({ path: `${SCREENSHOTS}/recipes-desktop-cards.png` });

    await page.getByRole("button", { name: /^Egg fried rice / }).click();
    const kitchen = page.getByRole("region", { name: "Kitchen" });
    await kitchen.getByRole("heading", { name: "Egg fried rice", level: 1 }).waitFor();
    expect(await kitchen.getByRole("region", { name: "Ingredients" }).textContent()).toContain("400 g cooked rice");
    await kitchen.getByRole("button", { name: "Next step →" }).click();
    expect(await kitchen.getByRole("region", { name: "Current step" }).textContent()).toMatch(/^Step 2 of 6Heat the oil/);
    // The screen travels with the next question.
    await ask(page, "hello");
    await lastReply(page, /Hello!/);
    expect(runs.at(-1)!.context).toEqual([{ description: "On screen", value: "recipe r-204 (Egg fried rice), step 2 of 6" }]);
    await page.screenshot({ path: `${SCREENSHOTS}/recipes-desktop-recipe.png` });
    await context.close();
  });

  it("never hands a guest's agent save_to_cookbook: asked to save, it says to sign in, and nothing is saved", async () => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "guest");
    const runs = recordRuns(page);
    await ask(page, "save egg fried rice");
    expect(await lastReply(page, /sign in/)).toBe("Saving recipes needs an account: sign in, and I can save recipes to your cookbook.");
    expect(runs[0]!.tools.map((tool) => tool.name)).toEqual(["offer_recipes"]);
    expect(await page.locator(".tether-activity", { hasText: "save_to_cookbook" }).count()).toBe(0);
    // A guest has no cookbook at all; and Sam, who is someone else, has nothing saved either.
    expect(await apiGet(page, "/cookbook")).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
    await page.screenshot({ path: `${SCREENSHOTS}/recipes-guest-save.png` });
    await switchProfile(page, "sam");
    expect((await apiGet(page, "/cookbook")).body.cookbook.map((entry: { recipeId: string }) => entry.recipeId)).not.toContain("r-204");
    await context.close();
  });

  it("shows a vegetarian swap chips, and gives Sam, whose frontend has no swaps tool, the same advice as text", async () => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "vera");
    await ask(page, "What can I use instead of eggs?");
    await lastReply(page, /swap/);
    const chips = page.getByRole("list", { name: "Ingredient swaps" }).getByRole("listitem");
    expect(await chips.allTextContents()).toEqual(["eggs → silken tofu · no eggs? tofu works too"]);
    expect(await lastActivity(page, "suggest_ingredient_swaps")).toMatchObject({ status: "succeeded" });
    await page.screenshot({ path: `${SCREENSHOTS}/recipes-swaps.png` });

    await switchProfile(page, "sam");
    await ask(page, "What can I use instead of eggs?");
    expect(await lastReply(page, /silken tofu/)).toBe("Instead of eggs, try silken tofu.");
    expect(await page.getByRole("list", { name: "Ingredient swaps" }).count()).toBe(0);
    await context.close();
  });

  it("says a recipe is saved only once the cookbook answered, and the cookbook page lists it", async () => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "sam");
    // Hold the save on its way to the API: until it is answered, nobody may say it is saved.
    let held!: (route: Route) => void;
    const saving = new Promise<Route>((resolve) => (held = resolve));
    await page.route("**/api/recipes/cookbook", (route) => (route.request().method() === "POST" ? held(route) : route.continue()));
    await ask(page, "save egg fried rice");
    const route = await saving;
    await expect.poll(async () => (await lastActivity(page, "save_to_cookbook")).status).toBe("running");
    await page.waitForTimeout(300);
    expect(await page.getByRole("log", { name: "Conversation" }).textContent()).not.toMatch(/Saved Egg fried rice/);
    await route.continue();
    await page.unroute("**/api/recipes/cookbook");

    expect(await lastReply(page, /cookbook\.$/)).toBe("Saved Egg fried rice to your cookbook.");
    expect(await lastActivity(page, "save_to_cookbook")).toMatchObject({ status: "succeeded" });
    await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Cookbook" }).click();
    const saved = page.getByRole("list", { name: "Saved recipes" }).getByRole("listitem");
    await expect.poll(() => saved.allTextContents()).toEqual([expect.stringMatching(/^Egg fried ricesaved .+Remove$/)]);
    await page.screenshot({ path: `${SCREENSHOTS}/recipes-cookbook.png` });

    // Saying it again changes nothing, and says so.
    await page.getByRole("link", { name: "Kitchen" }).click();
    await ask(page, "save egg fried rice");
    expect(await lastReply(page, /cookbook\.$/)).toBe("Egg fried rice was already in your cookbook.");
    expect((await apiGet(page, "/cookbook")).body.cookbook).toHaveLength(1);
    await context.close();
  });

  it("builds a tools manifest that matches the server's allow-list, as `tether tools check` sees it", async () => {
    const { url, token } = suite.server();
    const { stdout } = await run(process.execPath, [
      ...TETHER_COMMAND,
      "tools",
      "check",
      "--url",
      url,
      "--agent",
      "recipes",
      "--manifest",
      "apps/recipes/web/dist/tools.manifest.json",
      "--token",
      token("sam"),
    ]);
    expect(stdout).toContain("5 tools match agent recipes's allow-list");
    const served = await (await fetch(`${url}/recipes/tools.manifest.json`)).json();
    expect(served.map((tool: { name: string }) => tool.name).sort()).toEqual([
      "offer_recipes",
      "order_ingredients",
      "save_to_cookbook",
      "start_step_timer",
      "suggest_ingredient_swaps",
    ]);
  });
});
