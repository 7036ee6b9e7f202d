import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, contentHeading, lastActivity, lastReply, lineWords, navigations, openWorkdesk, signIn } from "./workdesk.ts";

/**
 * The Workdesk story in Chromium through `workdesk-upstream`: the same page,
 * its agent an AI SDK one that Tether stands in front of (apps/workdesk/upstream/).
 * The timeline and the honest outcome are the built-in agent's.
 */
describe("the Workdesk story through an upstream agent, in Chromium", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("opens the work request list when kim asks, the upstream looking it up and the browser opening it once", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 860 } });
    const page = await openWorkdesk(context, `${suite.server().url}/?agent=workdesk-upstream`);
    await signIn(page, "kim");
    await page.getByRole("textbox", { name: "Message the assistant" }).fill("open the work request list");
    await page.getByRole("button", { name: "Send" }).click();

    expect(await lastReply(page, /Work request list is open now\./)).toBe("Work request list is open now.");
    expect(await contentHeading(page)).toBe("Work request list");
    expect(await lastActivity(page, "navigateToScreen")).toEqual({ status: "succeeded", text: expect.stringContaining("succeeded · displayed") });
    expect(await lastActivity(page, "lookupScreens")).toEqual({ status: "done", text: expect.stringContaining("on the server") });
    expect(await lineWords(page, "navigateToScreen")).toBe("Opened Work request list (/work-requests)");
    expect(await navigations(page)).toBe(1);
    // It was the upstream agent that answered: the thread the page keeps is the upstream agent's.
    expect(await page.evaluate(() => sessionStorage.getItem("workdesk:agent"))).toBe("workdesk-upstream");
    expect(await page.getByText(/An AG-UI agent Tether does not run, at http:\/\/127\.0\.0\.1:\d+/).count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}/story-upstream.png` });
    await context.close();
  });
});
