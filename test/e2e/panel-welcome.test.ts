import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, contentHeading, lastReply, lineWords, openWorkdesk, signIn } from "./workdesk.ts";

describe("the panel before the first message", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("greets the person with what the agent offers them, and a suggestion sends itself", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 860 } });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    const suggestions = page.getByRole("list", { name: "Suggestions" }).getByRole("button");
    await expect.poll(() => suggestions.allTextContents()).toEqual(["open the work request list", "find badge reader requests", "show R-1042 as a card"]);
    expect(await page.locator(".tether-welcome__greeting").textContent()).toMatch(/^Hi Kim\. I can open the screens you have access to/);
    await page.screenshot({ path: `${SCREENSHOTS}/panel-welcome.png` });

    await suggestions.first().click();
    await lastReply(page, /open now/);
    expect(await contentHeading(page)).toBe("Work request list");
    expect(await lineWords(page, "navigateToScreen")).toBe("Opened Work request list (/work-requests)");
    // Once the conversation has begun the welcome is gone, and it stays gone after a reload.
    expect(await page.locator(".tether-welcome").count()).toBe(0);
    await page.reload();
    await page.getByRole("article", { name: "You said" }).first().waitFor();
    expect(await page.locator(".tether-welcome").count()).toBe(0);
    await context.close();
  });
});
