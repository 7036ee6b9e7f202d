import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { DESKTOP, PHONE, SCREENSHOTS, apiGet, ask, lastReply, openRecipes, recordRuns } from "./recipes.ts";

/** The generated recipe surface for r-204, as the conversation shows it. */
function recipeSurface(page: Page) {
  return page.locator('section[aria-label="Generated view"][data-surface-id="recipe-r-204"]');
}

describe("generated UI in Recipes, in Chromium", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 2 } });

  it("shows a phone how to make r-204 with a Start timer per step, and a click starts that step's timer", async () => {
    const context = await suite.browser().newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await openRecipes(context, suite.server().url, "sam", "?device=mobile");
    const runs = recordRuns(page);
    await ask(page, "show me how to make r-204");
    const surface = recipeSurface(page);
    await surface.getByText("Egg fried rice").first().waitFor();
    expect(await surface.textContent()).toMatch(/Ingredients.*Steps/s);
    const timers = surface.getByRole("button", { name: /^Start timer/ });
    expect(await timers.count()).toBe(6);
    expect(await surface.getByRole("button", { name: "Save to cookbook" }).count()).toBe(1);
    await lastReply(page, /Egg fried rice/);
    // Each button as tall as its label, beside a step that takes the rest of the width (a stretched row drew tall ovals).
    for (const box of await Promise.all((await timers.all()).map((timer) => timer.boundingBox()))) expect(box!.height).toBeLessThan(60);
    await timers.first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}/surface-recipe-mobile.png` });

    await timers.nth(2).click();
    expect(await lastReply(page, /is running\.$/)).toMatch(/^Your 3-minute timer \(Step 3: Add the rice/);
    // The click went as an A2UI user action on a ui-action run.
    const clicked = runs.find(
      (run) => (run as { forwardedProps?: { tether?: { trigger?: { kind?: string } } } }).forwardedProps?.tether?.trigger?.kind === "ui-action",
    ) as { forwardedProps: { a2uiAction: { userAction: { name: string; surfaceId: string; sourceComponentId: string } } } } | undefined;
    expect(clicked?.forwardedProps.a2uiAction.userAction).toMatchObject({ name: "start_timer", surfaceId: "recipe-r-204", sourceComponentId: "step-3-timer" });
    const timer = page.getByRole("region", { name: /^Timer: Step 3: Add the rice/ });
    expect(await timer.getByRole("timer").textContent()).toMatch(/^(3:00|2:[0-5]\d)$/);
    await context.close();
  });

  it("gives a signed-in desktop a Save button and no timers; Save puts the recipe in the cookbook", async () => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "vera");
    await ask(page, "show me how to make r-204");
    const surface = recipeSurface(page);
    await surface.getByRole("button", { name: "Save to cookbook" }).waitFor();
    expect(await surface.getByRole("button", { name: /^Start timer/ }).count()).toBe(0);
    await lastReply(page, /Egg fried rice/);
    await page.screenshot({ path: `${SCREENSHOTS}/surface-recipe-desktop.png` });

    await surface.getByRole("button", { name: "Save to cookbook" }).click();
    // The click stands in the conversation, then the answer speaks from the cookbook's reply.
    await page.getByRole("log", { name: "Conversation" }).locator(".tether-message--action", { hasText: "Save to cookbook" }).waitFor();
    expect(await lastReply(page, /^Saved Egg fried rice/)).toBe("Saved Egg fried rice to your cookbook.");
    const cookbook = await apiGet(page, "/cookbook");
    expect(cookbook.status).toBe(200);
    expect(JSON.stringify(cookbook.body)).toContain("r-204");
    await context.close();
  });

  it("shows a guest the recipe without buttons", async () => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "guest");
    await ask(page, "show me how to make r-204");
    const surface = recipeSurface(page);
    await surface.getByText("Steps").waitFor();
    await lastReply(page, /Egg fried rice/);
    expect(await surface.getByRole("button").count()).toBe(0);
    await context.close();
  });
});
