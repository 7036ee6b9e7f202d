import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOJO_FEATURES } from "../../apps/dojo/agent/index.ts";
import { seriousViolations } from "./axe.ts";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, lastReply } from "./workdesk.ts";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/**
 * The dojo's pages at /dojo/, built from Tether's own React parts, each
 * driving the agent of its feature on the offline playbook: what the person
 * sees on each, in Chromium.
 */
describe("the dojo's feature pages (/dojo/), in Chromium", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 2 } });
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await suite.browser().newContext({ viewport: DESKTOP });
    page = await context.newPage();
    page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  });
  afterAll(async () => {
    await context.close();
  });

  /** The page as it is now, in docs/screenshots, with no serious or critical finding of axe-core. */
  async function seen(shown: Page, name: string): Promise<void> {
    expect(await seriousViolations(shown)).toEqual([]);
    await shown.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
  }

  /** A feature's page, opened from the index as a person would (no reload), with an empty conversation. */
  async function open(title: string): Promise<void> {
    await page.getByRole("link", { name: "AG-UI dojo · Tether" }).click();
    await page
      .getByRole("list", { name: "Features" })
      .getByRole("link", { name: new RegExp(`^${title}`) })
      .click();
    await page.getByRole("heading", { name: title, level: 1 }).waitFor();
    await page.getByRole("list", { name: "Suggestions" }).waitFor();
  }

  it("asks who is there, as the other demos do (any demo user may use the dojo), then lists the seven features", async () => {
    await page.goto(`${suite.server().url}/dojo/`);
    // A Recipes person here, though the Workdesk's would do as well.
    await page.getByRole("button", { name: "Sign in as sam" }).click();
    const features = page.getByRole("list", { name: "Features" }).getByRole("link");
    await expect.poll(() => features.count()).toBe(7);
    expect(await features.evaluateAll((links) => links.map((link) => link.getAttribute("href")))).toEqual(DOJO_FEATURES.map((feature) => `/dojo/${feature}`));
    await seen(page, "dojo-index");
  });

  it("agentic_chat: the page's own tool changes its background, and only then does the agent say so; the weather is a card", async () => {
    await open("Agentic chat");
    const backdrop = page.getByRole("region", { name: "Chat backdrop" });
    const background = () => backdrop.evaluate((element) => getComputedStyle(element).backgroundImage);
    expect(await background()).toBe("none");
    await ask(page, "Change the background to a blue gradient");
    expect(await lastReply(page, /background/)).toBe("Done: the background is a blue gradient now.");
    expect(await background()).toMatch(/^linear-gradient\(135deg, rgb\(0, 0, 255\) 0%, rgb\(255, 255, 255\) 100%\)$/);
    await ask(page, "What is the weather in Oslo?");
    await lastReply(page, /In Oslo it's/);
    const card = page.getByRole("log", { name: "Conversation" }).getByRole("region", { name: "Weather in Oslo" });
    expect(await card.getByRole("heading", { level: 3 }).textContent()).toBe("Oslo");
    await seen(page, "dojo-agentic-chat");
    // Reloaded: the same conversation, its card and the background its tool drew.
    await page.reload();
    await card.waitFor();
    expect(await background()).toMatch(/^linear-gradient/);
  });

  it("backend_tool_rendering: the server tool's call and result are a weather card for the city asked about", async () => {
    await open("Backend tool rendering");
    await page.getByRole("button", { name: "What's the weather like in San Francisco?" }).click();
    await lastReply(page, /Here's the weather in San Francisco/);
    const card = page.getByRole("log", { name: "Conversation" }).getByRole("region", { name: "Weather in San Francisco" });
    expect(await card.getByRole("heading", { level: 3 }).textContent()).toBe("San Francisco");
    expect(await card.textContent()).toMatch(/Current weather · .+°C.*Humidity\d+%Wind\d+ km\/hFeels like-?\d+ °C.*Demo figures/);
    await seen(page, "dojo-backend-tool-rendering");
  });

  it("human_in_the_loop: the person unticks a step and confirms, and the agent carries out only the steps kept", async () => {
    await open("Human in the loop");
    await ask(page, "Give me a plan to make brownies, there should be only one step with eggs and one step with oven");
    const card = page.getByRole("region", { name: "Proposed steps" });
    const confirm = card.getByRole("button", { name: /^Confirm/ });
    await confirm.waitFor();
    expect(await card.getByRole("checkbox").count()).toBe(3);
    await card.getByRole("checkbox", { name: "Crack eggs into bowl" }).uncheck();
    expect(await confirm.textContent()).toBe("Confirm (2)");
    await seen(page, "dojo-human-in-the-loop");
    await confirm.click();
    const reply = await lastReply(page, /^Done!/);
    expect(reply.replace(/\s+/g, " ").trim()).toBe("Done! I carried out the 2 steps you kept: Preheat oven to 350F Mix and bake for 25 min");
    expect(await card.textContent()).toContain("✓ Accepted: 2 steps");
    await ask(page, "Does the planner include eggs?");
    expect(await lastReply(page, /plan/)).toBe("No, the plan does not include eggs.");
    // The conversation's runs in the run-record viewer: the message, the person's answer, the next message.
    await page.getByRole("link", { name: "Run record" }).click();
    const runs = page.getByRole("navigation", { name: "Runs in this thread" }).getByRole("link");
    await expect.poll(() => runs.count(), { timeout: 15_000 }).toBe(3);
    await page.goBack();
  });

  it("agentic_generative_ui: the progress list follows the agent's state, from pending to all completed", async () => {
    await open("Agentic generative UI");
    const stage = page.getByRole("region", { name: "Task progress" });
    await ask(page, "Give me a plan to make brownies");
    const steps = stage.getByRole("list", { name: "Task steps" }).getByRole("listitem");
    // Seen while the tool works (a step every 600 ms): some steps completed, the others still pending.
    await expect
      .poll(async () => (await steps.allTextContents()).map((text) => /(Completed|Pending)$/.exec(text)?.[1]), { timeout: 15_000, interval: 50 })
      .toEqual(expect.arrayContaining(["Completed", "Pending"]));
    await seen(page, "dojo-agentic-generative-ui");
    await expect.poll(() => stage.textContent(), { timeout: 15_000 }).toMatch(/4\/4 complete/);
    expect(await steps.allTextContents()).toEqual(
      ["Gathering ingredients", "Melting chocolate", "Mixing batter", "Baking brownies"].map((step) => `✓${step}Completed`),
    );
    expect(await lastReply(page, /Done!/)).toBe("Done! All 4 steps are complete.");
  });

  it("tool_based_generative_ui: the haiku the agent hands the page's render-only tool is a card, in the conversation and the gallery", async () => {
    await open("Tool-based generative UI");
    await ask(page, 'Generate Haiku for "I will always win"');
    const name = "Haiku: On the path of victory";
    const inConversation = page.getByRole("log", { name: "Conversation" }).getByRole("figure", { name });
    await inConversation.waitFor();
    expect(await inConversation.textContent()).toBe(
      "勝利の道をOn the path of victory常に歩み続けるI will always keep walking勝つ運命よDestined to always winImage: Mount Fuji Lake Reflection Cherry Blossoms Sakura Spring",
    );
    const gallery = page.getByRole("region", { name: "Haiku gallery" }).getByRole("figure", { name });
    expect(await gallery.evaluate((element) => getComputedStyle(element).backgroundImage)).toMatch(/^linear-gradient/);
    // Render-only: the card is the answer, and no run follows it.
    expect(await page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "Assistant said" }).count()).toBe(0);
    await seen(page, "dojo-tool-based-generative-ui");
  });

  it("shared_state: the agent's recipe streams into the editor, and an ingredient the person adds reaches the agent", async () => {
    await open("Shared state");
    const recipe = page.getByRole("article", { name: "Recipe" });
    expect(await recipe.getByRole("textbox", { name: "Recipe title" }).inputValue()).toBe("Make Your Recipe");
    // How many ingredients the editor showed, each time it changed while the agent wrote the recipe.
    await recipe.evaluate((element) => {
      const counts: number[] = [];
      (window as unknown as { counts: number[] }).counts = counts;
      new MutationObserver(() => counts.push(element.querySelectorAll(".ingredient").length)).observe(element, { subtree: true, childList: true });
    });
    await ask(page, "Give me a pasta recipe");
    expect(await lastReply(page, /Done!/)).toBe('Done! The recipe "Garlic Tomato Pasta" is updated.');
    expect(await recipe.getByRole("textbox", { name: "Recipe title" }).inputValue()).toBe("Garlic Tomato Pasta");
    expect(await recipe.getByRole("textbox", { name: "Ingredient 2 name" }).inputValue()).toBe("Salt");
    expect(await recipe.getByRole("textbox", { name: /^Step \d$/ }).count()).toBe(5);
    // Streamed in as the agent wrote it (predicted from its tool's argument), not all at once at the end.
    const counts = await page.evaluate(() => (window as unknown as { counts: number[] }).counts);
    expect(counts.some((count) => count > 0 && count < 5)).toBe(true);

    await recipe.getByRole("button", { name: "+ Add ingredient" }).click();
    await recipe.getByRole("textbox", { name: "Ingredient 6 name" }).fill("Potatoes");
    await recipe.getByRole("textbox", { name: "Ingredient 6 amount" }).fill("12");
    await seen(page, "dojo-shared-state");
    await ask(page, "Give me all the ingredients");
    expect(await lastReply(page, /has:/)).toContain("Potatoes: 12");
    // Reloaded: the recipe is the thread's stored state, the person's ingredient in it.
    await page.reload();
    await expect.poll(() => recipe.getByRole("textbox", { name: "Ingredient 6 name" }).inputValue(), { timeout: 15_000 }).toBe("Potatoes");
    expect(await recipe.getByRole("textbox", { name: "Recipe title" }).inputValue()).toBe("Garlic Tomato Pasta");
  });

  it("predictive_state_updates: the document grows while the agent writes it; Accept keeps it, Reject puts the old one back", async () => {
    await open("Predictive state updates");
    const documentView = page.getByRole("region", { name: "Shared document" }).getByRole("article", { name: "Document" });
    // Every length the document had on screen while it was written.
    await documentView.evaluate((element) => {
      const lengths: number[] = [];
      (window as unknown as { lengths: number[] }).lengths = lengths;
      new MutationObserver(() => lengths.push(element.textContent?.length ?? 0)).observe(element, { subtree: true, childList: true, characterData: true });
    });
    await ask(page, "Give me a story for a dragon called Atlantis in document");
    const card = page.getByRole("region", { name: "Confirm changes" }).last();
    await card.getByRole("button", { name: "Accept" }).waitFor();
    const text = (await documentView.textContent()) ?? "";
    expect(text).toMatch(/^The Dragon AtlantisHigh above the misty valley lived a dragon called Atlantis\./);
    const lengths = await page.evaluate(() => (window as unknown as { lengths: number[] }).lengths);
    expect(lengths.filter((length) => length > 0 && length < text.length).length).toBeGreaterThan(0);
    await seen(page, "dojo-predictive-state-updates");
    await card.getByRole("button", { name: "Accept" }).click();
    expect(await lastReply(page, /changes/)).toBe("Done! The changes are kept.");
    expect(await card.textContent()).toContain("✓ Accepted");

    await ask(page, "Change dragon name to Lola");
    const second = page.getByRole("region", { name: "Confirm changes" }).last();
    await second.getByRole("button", { name: "Reject" }).waitFor();
    expect(await documentView.textContent()).toContain("dragon called Lola");
    await second.getByRole("button", { name: "Reject" }).click();
    expect(await lastReply(page, /changes/)).toBe("Understood: the changes were not kept.");
    expect(await documentView.textContent()).toBe(text);
  });

  it("fits a phone: no page is wider than the screen, the page's view above the conversation", async () => {
    const phone = await suite.browser().newContext({ viewport: PHONE, storageState: await context.storageState() });
    const small = await phone.newPage();
    for (const feature of ["", "agentic_chat", "human_in_the_loop", "shared_state", "predictive_state_updates"]) {
      await small.goto(`${suite.server().url}/dojo/${feature}`);
      await small.getByRole("heading", { level: 1 }).waitFor();
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    }
    const stage = small.getByRole("region", { name: "Shared document" });
    const panel = small.getByRole("region", { name: "Assistant" });
    expect((await stage.boundingBox())!.y).toBeLessThan((await panel.boundingBox())!.y);
    await small.goto(`${suite.server().url}/dojo/shared_state`);
    await small.getByRole("article", { name: "Recipe" }).waitFor();
    await seen(small, "dojo-shared-state-phone");
    await phone.close();
  });
});
