import type { Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { ask, contentHeading, lastActivity, lastReply, navigations, openWorkdesk, sendMessage, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 860 };
// Every honest thing the agent can say once the navigation's outcome is known.
const SETTLED = /is open now\.|was cancelled\.|can't tell whether it opened/;

describe("a browser tool call runs at most once", () => {
  // Slow streaming, so a reload or a second window can land in the middle of a run.
  const suite = browserSuite({ playbook: { chunkDelayMs: 40 } });

  it.each([
    ["before the navigation call arrived", "lookupScreens"],
    ["while the navigation call was streaming", "navigateToScreen"],
  ])("never navigates twice when the page reloads %s, and the agent still speaks honestly", async (_when, visibleTool) => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await ask(page, "open the work request list");
    await page.locator(".tether-activity", { hasText: visibleTool }).first().waitFor();
    await page.reload();

    // After the reload the page follows the run without acting, then answers the call it owns.
    const reply = await lastReply(page, SETTLED, 30_000);
    expect(await navigations(page)).toBeLessThanOrEqual(1);
    const outcome = await lastActivity(page, "navigateToScreen");
    if ((await navigations(page)) === 0) {
      expect(outcome.status).toBe("cancelled");
      expect(outcome.text).toContain("page_reloaded");
      expect(reply).toMatch(/was cancelled/);
    } else {
      expect(await contentHeading(page)).toBe("Work request list");
    }
    // A quiet moment later, still nothing more happened.
    await page.waitForTimeout(500);
    expect(await navigations(page)).toBeLessThanOrEqual(1);
    await context.close();
  });

  it("lets a second window on the same thread watch a run without ever acting on it", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const first = await openWorkdesk(context, suite.server().url);
    await signIn(first, "kim");
    await ask(first, "open the work request list");
    await first.locator(".tether-activity", { hasText: "lookupScreens" }).first().waitFor();

    // Same user, same browser profile: the second tab continues the same thread, with its own session.
    const second = await context.newPage();
    await second.goto(suite.server().url);
    await second.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    await expect
      .poll(async () => (await second.getByRole("log", { name: "Conversation" }).textContent()) ?? "", { timeout: 15_000 })
      .toContain("open the work request list");

    expect(await lastReply(first, /Work request list is open now\./, 30_000)).toBe("Work request list is open now.");
    expect(await navigations(first)).toBe(1);
    expect(await contentHeading(first)).toBe("Work request list");

    // The watcher saw the call but never ran it, and its own screen never moved.
    await second.locator(".tether-activity", { hasText: "navigateToScreen" }).first().waitFor();
    await second.waitForTimeout(500);
    expect(await navigations(second)).toBe(0);
    expect(await contentHeading(second)).toBe("Dashboard");
    await context.close();
  });

  it("stops a run when the user presses Stop", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await ask(page, "find badge reader requests");
    await page.getByRole("button", { name: "Stop" }).click();
    await expect.poll(() => page.getByRole("log", { name: "Conversation" }).getAttribute("aria-busy")).toBe("false");
    expect(await page.getByRole("button", { name: "Stop" }).count()).toBe(0);
    const runs = await page.evaluate(async () => {
      const threadId = localStorage.getItem("workdesk:thread:kim");
      const thread = await (await fetch(`/api/threads/${threadId}`)).json();
      return thread.runs.map((run: { status: string; outcome?: { type: string } }) => [run.status, run.outcome?.type]);
    });
    expect(runs).toEqual([["cancelled", "cancelled"]]);
    await context.close();
  });

  it("stops a run when Stop is pressed before the server has it, so the screen never opens", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    let intercepted!: (route: Route) => void;
    const held = new Promise<Route>((resolve) => (intercepted = resolve));
    await page.route("**/api/agents/workdesk/run", (route) => intercepted(route), { times: 1 });
    const refused = page.waitForResponse((response) => response.url().includes("/cancel"));
    await sendMessage(page, "open the work request list");
    const route = await held;
    await page.getByRole("button", { name: "Stop" }).click();
    expect((await refused).status()).toBe(404); // the server does not know the run yet
    const sentAgain = page.waitForResponse((response) => response.url().includes("/cancel") && response.status() === 202);
    await route.continue();
    await sentAgain;
    await expect.poll(() => page.getByRole("log", { name: "Conversation" }).getAttribute("aria-busy"), { timeout: 20_000 }).toBe("false");
    const runs = await page.evaluate(async () => {
      const threadId = localStorage.getItem("workdesk:thread:kim");
      const thread = await (await fetch(`/api/threads/${threadId}`)).json();
      return thread.runs.map((run: { status: string; outcome?: { type: string } }) => [run.status, run.outcome?.type]);
    });
    expect(runs).toEqual([["cancelled", "cancelled"]]);
    expect(await navigations(page)).toBe(0);
    expect(await contentHeading(page)).toBe("Dashboard");
    expect(await page.locator(".tether-panel__error").count()).toBe(0); // no raw "not found" for a Stop that worked
    await context.close();
  });
});
