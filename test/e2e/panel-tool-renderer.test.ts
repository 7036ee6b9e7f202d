import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 860 };

describe("a server tool drawn in the conversation (useToolRenderer)", () => {
  // Slow enough that the search's arguments stream in over several paints.
  const suite = browserSuite({ playbook: { chunkDelayMs: 40 } });

  it("shows the Workdesk's record search as a card: what is searched for while it streams and runs, then what was found", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    // Every state the card is drawn in, as the page shows it.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as { cardStates?: string[] }).cardStates = seen;
      new MutationObserver(() => {
        for (const view of document.querySelectorAll('[aria-label="searchWorkRequests view"]')) {
          const text = view.textContent ?? "";
          if (seen.at(-1) !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });

    await ask(page, "find badge reader requests");
    const card = page.getByRole("region", { name: "Work requests matching “badge reader”" });
    await card.waitFor({ timeout: 20_000 });
    await lastReply(page, /I found 1 work request/);
    expect(await card.getByRole("heading").textContent()).toBe("Work requests matching “badge reader”: 1");
    expect(await card.getByRole("listitem").allTextContents()).toEqual(["R-1042 Replace broken badge reader at Gate 3 Open"]);
    const states = await page.evaluate(() => (window as { cardStates?: string[] }).cardStates ?? []);
    expect(states.some((state) => state.startsWith("Searching the work requests"))).toBe(true);
    expect(states.at(-1)).toBe(await card.textContent());
    // The card stands in place of the call's line; the other lines stay.
    expect(await page.locator(".tether-activity", { hasText: "searchWorkRequests" }).count()).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}/server-tool-card.png` });

    // The card is drawn from the thread: after a reload it is there again, from the stored call and result.
    await page.reload();
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getByRole("listitem").allTextContents()).toEqual(["R-1042 Replace broken badge reader at Gate 3 Open"]);
    await context.close();
  });
});
