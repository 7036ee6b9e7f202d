import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, contentHeading, lastActivity, lastReply, lineWords, navigations, openWorkdesk, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 860 };

describe("the Workdesk story in Chromium", () => {
  // A few milliseconds between stream parts: the text streams visibly, as with a real model.
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("opens the work request list when kim asks, without a reload, and says so only once it shows", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await page.evaluate(() => ((window as unknown as { storyMarker: string }).storyMarker = "still here"));
    await page.getByRole("textbox", { name: "Message the assistant" }).fill("open the work request list");
    await page.screenshot({ path: `${SCREENSHOTS}/story-before.png` });
    await page.getByRole("button", { name: "Send" }).click();

    expect(await lastReply(page, /Work request list is open now\./)).toBe("Work request list is open now.");
    expect(await contentHeading(page)).toBe("Work request list");
    expect(page.url()).toBe(`${suite.server().url}/work-requests`);
    await expect.poll(() => page.getByRole("table").getByRole("row").count()).toBeGreaterThan(10);
    // No page load happened: what was set on window is still there, and the panel never left.
    expect(await page.evaluate(() => (window as unknown as { storyMarker?: string }).storyMarker)).toBe("still here");
    expect(await page.getByRole("region", { name: "Assistant" }).isVisible()).toBe(true);
    expect(await lastActivity(page, "navigateToScreen")).toEqual({ status: "succeeded", text: expect.stringContaining("succeeded · displayed") });
    expect(await lastActivity(page, "lookupScreens")).toEqual({ status: "done", text: expect.stringContaining("on the server") });
    // The Workdesk words its navigation calls itself (useBrowserTool's describe), from the call's arguments and outcome.
    expect(await lineWords(page, "navigateToScreen")).toBe("Opened Work request list (/work-requests)");
    expect(await lineWords(page, "lookupScreens")).toBe("Done: Lookup screens");
    expect(await navigations(page)).toBe(1);

    // How long from TOOL_CALL_END arriving to the navigation function being called.
    const dispatch = await page.evaluate(() => performance.getEntriesByName("tether:tool-dispatch").map((entry) => entry.duration));
    expect(dispatch).toHaveLength(1);
    expect(dispatch[0]).toBeLessThan(16);
    writeFileSync("docs/screenshots/measurements.json", `${JSON.stringify({ toolCallEndToNavigateMs: dispatch[0] }, null, 2)}\n`);
    console.log(`TOOL_CALL_END → navigation call: ${dispatch[0]!.toFixed(2)} ms`);

    await page.screenshot({ path: `${SCREENSHOTS}/story-after.png` });
    await context.close();
  });

  it("opens Approvals for a manager who asks", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    await ask(page, "take me to the approvals");
    await lastReply(page, /Approvals is open now\./);
    expect(await contentHeading(page)).toBe("Approvals");
    expect(await lastActivity(page, "navigateToScreen")).toMatchObject({ status: "succeeded" });
    await context.close();
  });

  it("never offers kim user administration, and a forced navigation to it fails as access_denied", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    const seen: string[] = [];
    page.on("response", async (response) => {
      if (response.url().includes("/api/")) seen.push(await response.text().catch(() => ""));
    });

    await ask(page, "take me to user administration");
    const offered = await lastReply(page, /couldn't find a screen/);
    expect(offered).not.toMatch(/User administration|MNU-9000/);
    expect(await page.getByRole("navigation", { name: "Menu" }).textContent()).not.toMatch(/User administration|Approvals/);

    // The model names the admin screen's id itself: the browser's own check of kim's screens refuses it.
    await ask(page, "open MNU-9000");
    const reply = await lastReply(page, /couldn't open MNU-9000/);
    expect(reply).toMatch(/doesn't have access/);
    expect(await contentHeading(page)).toBe("Dashboard");
    expect(await navigations(page)).toBe(0);
    const denied = await lastActivity(page, "navigateToScreen");
    expect(denied.status).toBe("failed");
    expect(await lineWords(page, "navigateToScreen")).toBe("Couldn't open MNU-9000: you don't have access");
    expect(denied.text).toContain("failed · requested, access_denied");
    // Nothing about the screen kim cannot open reached this browser, beyond the id it was asked to open.
    expect(seen.join("\n")).not.toMatch(/User administration|\/admin\/users/);
    await page.screenshot({ path: `${SCREENSHOTS}/story-denied.png` });
    await context.close();
  });

  it.each([
    ["Full screen", "fullscreen"],
    ["Window", "modal"],
  ])("blocks navigation in %s mode and gives the route to follow by hand", async (label, mode) => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await page.getByRole("radio", { name: label }).click();
    // The switch re-renders the panel (a region, or a dialog over the screen): wait for the mode it shows.
    await expect
      .poll(() =>
        page
          .getByRole("region", { name: "Assistant" })
          .or(page.getByRole("dialog", { name: "Assistant" }))
          .getAttribute("data-mode"),
      )
      .toBe(mode);
    await ask(page, "open the work request list");
    const reply = await lastReply(page, /can't change the screen/);
    expect(reply).toContain("Work management › Work request list (/work-requests)");
    expect(page.url()).toBe(`${suite.server().url}/dashboard`);
    expect(await navigations(page)).toBe(0);
    const blocked = await lastActivity(page, "navigateToScreen");
    expect(blocked).toEqual({ status: "blocked", text: expect.stringContaining("blocked · blocked_by_mode") });
    expect(await lineWords(page, "navigateToScreen")).toBe("Didn't open Work request list: not while the assistant covers the screen");
    if (mode === "modal") await page.screenshot({ path: `${SCREENSHOTS}/story-modal.png` });
    await context.close();
  });
});
