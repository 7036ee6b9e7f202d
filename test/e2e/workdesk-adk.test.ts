import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, contentHeading, lastActivity, lastReply, lineWords, navigations, openWorkdesk, signIn } from "./workdesk.ts";

/**
 * The Workdesk story in Chromium through `workdesk-adk`: the same page, its
 * agent an ADK `LlmAgent` that Tether runs (apps/workdesk/adk/), on the offline
 * playbook. The timeline and the honest outcome are the built-in agent's.
 */
describe("the Workdesk story on the ADK agent, in Chromium", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("opens the work request list when kim asks, the ADK agent looking it up and the browser opening it once", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 860 } });
    const page = await openWorkdesk(context, `${suite.server().url}/?agent=workdesk-adk`);
    await signIn(page, "kim");
    // The shell names the agent once its description arrives: wait for it, then check it is said once.
    const named = page.getByText("An ADK agent, run by Tether: workdesk/playbook:workdesk");
    await named.first().waitFor();
    expect(await named.count()).toBe(1);
    await ask(page, "open the work request list");

    expect(await lastReply(page, /Work request list is open now\./)).toBe("Work request list is open now.");
    expect(await contentHeading(page)).toBe("Work request list");
    expect(await lastActivity(page, "navigateToScreen")).toEqual({ status: "succeeded", text: expect.stringContaining("succeeded · displayed") });
    expect(await lastActivity(page, "lookupScreens")).toEqual({ status: "done", text: expect.stringContaining("on the server") });
    expect(await lineWords(page, "navigateToScreen")).toBe("Opened Work request list (/work-requests)");
    expect(await navigations(page)).toBe(1);
    // It was the ADK agent that answered: the tab keeps to it.
    expect(await page.evaluate(() => sessionStorage.getItem("workdesk:agent"))).toBe("workdesk-adk");
    await page.screenshot({ path: `${SCREENSHOTS}/story-adk.png` });
    await context.close();
  });

  it("closes R-1042 only once lee approves, ADK holding the call until then", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 860 } });
    const page = await openWorkdesk(context, `${suite.server().url}/?agent=workdesk-adk`);
    await signIn(page, "lee");
    await ask(page, "close R-1042 as fixed");
    const card = page.getByRole("group", { name: "Approval needed" });
    await card.waitFor();
    expect(await card.textContent()).toContain('Close R-1042 "Replace broken badge reader at Gate 3" as "fixed"?');
    expect(await lastReply(page, /once you approve/)).toBe(`I'll close R-1042 as "fixed" once you approve.`);

    await card.getByRole("button", { name: "Approve" }).click();
    expect(await lastReply(page, /is closed/)).toBe("R-1042 is closed (resolution: fixed).");
    expect(await card.count()).toBe(0);
    await page.getByRole("navigation", { name: "Menu" }).getByRole("link", { name: "Work request list" }).click();
    await expect.poll(() => contentHeading(page)).toBe("Work request list");
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "R-1042", exact: true }) });
    expect(await row.locator(".badge").textContent()).toBe("Closed");
    await context.close();
  });
});
