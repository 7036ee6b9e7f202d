import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { DESKTOP, apiGet, ask, countPosts, lastActivity, lastReply, openRecipes } from "./recipes.ts";

// Every honest thing the agent can say once the save's outcome is known.
const SETTLED = /to your cookbook\.$|was already in your cookbook\.$|couldn't save|didn't say whether/;

describe("reloading Recipes in the middle of an answer, in Chromium", () => {
  // Slow streaming, so the reload lands while the answer is still coming.
  const suite = browserSuite({ playbook: { chunkDelayMs: 40 } });

  it.each([
    ["while the answer's words stream, before the save is called", "Saving", "Egg fried rice", "r-204"],
    ["while the save's call streams", "Save to cookbook", "Shakshuka", "r-202"], // the call's line, in words
  ])("brings the conversation back and saves at most once when the page reloads %s", async (_when, visible, title, recipeId) => {
    const context = await suite.browser().newContext({ viewport: DESKTOP });
    const page = await openRecipes(context, suite.server().url, "sam");
    const posts = countPosts(page, "/cookbook");
    const log = page.getByRole("log", { name: "Conversation" });
    await ask(page, `save ${title.toLowerCase()}`);
    await log.getByText(visible).first().waitFor();
    await page.reload();

    // The page follows the run without acting, then answers for the call it owns.
    const reply = await lastReply(page, SETTLED, 30_000);
    expect(await log.getByRole("article", { name: "You said" }).allTextContents()).toEqual([`save ${title.toLowerCase()}`]);
    expect(posts()).toBeLessThanOrEqual(1);
    const saved = (await apiGet(page, "/cookbook")).body.cookbook.some((entry: { recipeId: string }) => entry.recipeId === recipeId);
    expect(saved).toBe(posts() === 1);
    // What the agent says matches what happened.
    if (saved) expect(reply).toBe(`Saved ${title} to your cookbook.`);
    else expect(reply).not.toMatch(/Saved/);
    expect(["succeeded", "cancelled", "unknown"]).toContain((await lastActivity(page, "save_to_cookbook")).status);
    // A quiet moment later, still nothing more happened.
    await page.waitForTimeout(500);
    expect(posts()).toBeLessThanOrEqual(1);
    await context.close();
  });
});
