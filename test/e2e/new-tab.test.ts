import type { Browser, Page, Request, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./browser.ts";
import { browserSuite } from "./suite.ts";
import { ask, contentHeading, sendMessage, lastActivity, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 860 };
const ASK_FOR_A_NEW_TAB = "open the work request list in a new tab";

/** The continuation run that carries the browser's outcome of a tool call. */
const carriesToolOutcome = (request: Request) =>
  request.method() === "POST" && request.url().endsWith("/run") && (request.postData() ?? "").includes('"tool-result"');

describe("opening a screen in a new tab, in Chromium", () => {
  const suite = browserSuite();

  it("with popups allowed, opens a real tab on the route, cut off from the Workdesk, and reports succeeded", async () => {
    // browserSuite's Chromium runs with popups allowed (--disable-popup-blocking).
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    const opened = context.waitForEvent("page");

    await ask(page, ASK_FOR_A_NEW_TAB);
    expect(await lastReply(page, /opened a new tab|was blocked/)).toBe("I've opened a new tab for Work request list (/work-requests).");
    expect(await lastActivity(page, "navigateToScreen")).toEqual({ status: "succeeded", text: expect.stringContaining("succeeded · requested") });

    const tab = await opened;
    await tab.waitForURL(`${suite.server().url}/work-requests`);
    // The same signed-in user sees the screen there.
    await tab.getByRole("main", { name: "Content" }).getByRole("heading", { name: "Work request list", level: 1 }).waitFor();
    // What noopener promised: the new page cannot reach back into the Workdesk.
    expect(await tab.evaluate(() => window.opener === null)).toBe(true);
    expect(context.pages()).toHaveLength(2);
    // The content area behind the panel stayed where it was.
    expect(page.url()).toBe(`${suite.server().url}/dashboard`);
    expect(await contentHeading(page)).toBe("Dashboard");
    await context.close();
  });

  describe("with Chromium's popup blocker on, as users have it", () => {
    let blocking: Browser;
    beforeAll(async () => {
      blocking = await launchChromium({ popups: "blocked" });
    });
    afterAll(async () => {
      await blocking?.close();
    });

    it("reports blocked · popup_blocked when the tab opens after the user's gesture has expired, and no tab exists", async () => {
      const context = await blocking.newContext({ viewport: VIEWPORT });
      const page = await openWorkdesk(context, suite.server().url);
      await signIn(page, "kim");
      const pages: Page[] = [];
      context.on("page", (opened) => pages.push(opened));

      // A real model often answers after the click on Send no longer counts as a user gesture
      // (Chromium's transient activation). Hold the run until the page reports it has expired.
      // Asked over CDP without a gesture: every Playwright evaluation and action counts as one,
      // so nothing below touches the page until the browser has reported its outcome.
      const cdp = await context.newCDPSession(page);
      const activationExpired = async () => {
        for (;;) {
          const { result } = await cdp.send("Runtime.evaluate", { expression: "navigator.userActivation.isActive", returnByValue: true });
          if (result.value === false) return;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      };
      let intercepted!: (route: Route) => void;
      const run = new Promise<Route>((resolve) => (intercepted = resolve));
      await page.route("**/api/agents/workdesk/run", (route) => intercepted(route), { times: 1 });
      const held = run.then(async (route) => {
        await activationExpired();
        await route.continue();
      });
      const reported = page.waitForRequest(carriesToolOutcome, { timeout: 45_000 });

      await sendMessage(page, ASK_FOR_A_NEW_TAB);
      await held;
      await reported;

      const reply = await lastReply(page, /opened a new tab|was blocked/);
      expect(reply).toMatch(/^Opening Work request list was blocked: The browser blocked the new tab\./);
      expect(reply).toContain("Work management › Work request list (/work-requests)");
      expect(await lastActivity(page, "navigateToScreen")).toEqual({ status: "blocked", text: expect.stringContaining("blocked · requested, popup_blocked") });
      expect(pages).toEqual([]);
      expect(context.pages()).toHaveLength(1);
      expect(page.url()).toBe(`${suite.server().url}/dashboard`);
      await context.close();
    });
  });
});
