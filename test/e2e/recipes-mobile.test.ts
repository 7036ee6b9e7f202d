import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { PHONE, SCREENSHOTS, ask, lastActivity, lastCards, lastReply, openRecipes, recordRuns } from "./recipes.ts";

describe("Recipes on a phone, in Chromium", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 2 } });

  it("offers exactly one full-width card, and times the step on screen when asked", async () => {
    const context = await suite.browser().newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await openRecipes(context, suite.server().url, "sam", "?device=mobile");
    const runs = recordRuns(page);
    await ask(page, "Something quick with leftover rice?");
    expect(await lastReply(page, /idea/)).toMatch(/Here's one idea:$/);

    // The phone words offer_recipes "exactly one" and adds the step timer.
    const offered = runs[0]!.tools;
    expect(offered.find((tool) => tool.name === "offer_recipes")!.description).toMatch(/exactly one/);
    expect(offered.map((tool) => tool.name)).toContain("start_step_timer");
    const cards = lastCards(page);
    expect(await cards.count()).toBe(1);
    expect(await cards.first().textContent()).toMatch(/^.?Egg fried rice/u);
    // Full width: the card spans the conversation, less its padding.
    const card = (await cards.first().boundingBox())!;
    const log = (await page.getByRole("log", { name: "Conversation" }).boundingBox())!;
    expect(card.width).toBeGreaterThan(log.width - 40);

    await cards.first().click();
    const kitchen = page.getByRole("region", { name: "Kitchen" });
    await kitchen.getByRole("heading", { name: "Egg fried rice", level: 1 }).waitFor();
    await kitchen.getByRole("button", { name: "Next step →" }).click();
    await kitchen.getByRole("button", { name: "Next step →" }).click();
    await expect.poll(() => kitchen.getByRole("region", { name: "Current step" }).textContent()).toMatch(/^Step 3 of 6Add the rice/);

    await ask(page, "start a timer");
    expect(await lastReply(page, /is running\.$/)).toBe(
      "Your 3-minute timer (Step 3: Add the rice and stir-fry for 3 minutes, breaking up any clumps.) is running.",
    );
    // The agent knew the step from the screen: the run said what was on it.
    expect(runs.at(-1)!.context).toEqual([{ description: "On screen", value: "recipe r-204 (Egg fried rice), step 3 of 6" }]);
    const timer = page.getByRole("region", { name: /^Timer: Step 3: Add the rice/ });
    expect(await timer.getByRole("timer").textContent()).toMatch(/^(3:00|2:[0-5]\d)$/);
    // It counts down.
    const first = await timer.getByRole("timer").textContent();
    await expect.poll(() => timer.getByRole("timer").textContent(), { timeout: 5_000 }).not.toBe(first);
    expect(await lastActivity(page, "start_step_timer")).toMatchObject({ status: "succeeded" });
    await page.screenshot({ path: `${SCREENSHOTS}/recipes-mobile-timer.png` });

    await timer.getByRole("button", { name: /^Cancel/ }).click();
    expect(await page.getByRole("timer").count()).toBe(0);
    await context.close();
  });

  it("becomes the phone layout when the window narrows, and hands the phone's tools from the next question on", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1100, height: 800 } });
    const page = await openRecipes(context, suite.server().url, "sam");
    const runs = recordRuns(page);
    expect(await page.locator(".kitchen--desktop").count()).toBe(1);
    await page.setViewportSize(PHONE);
    await page.locator(".kitchen--mobile").waitFor();
    await ask(page, "Something quick with leftover rice?");
    await lastReply(page, /Here's one idea:$/);
    expect(runs[0]!.tools.map((tool) => tool.name)).toContain("start_step_timer");
    expect(await lastCards(page).count()).toBe(1);
    await context.close();
  });
});
