import type { Page, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { ask, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

const RUN_ROUTE = "**/api/agents/workdesk/run";

// Short enough that a few exchanges overflow the panel's log.
const VIEWPORT = { width: 1400, height: 640 };

/** How far the log is from its end, in pixels: 0 when the newest line shows. */
const fromEnd = (page: Page) =>
  page.getByRole("log", { name: "Conversation" }).evaluate((log) => Math.round(log.scrollHeight - log.scrollTop - log.clientHeight));

describe("the conversation's scrolling", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 30 } });

  it("follows new content at the end, stays put for someone reading further up, and offers a way down", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    for (const question of ["find badge reader requests", "find R-1008", "what can you do?"]) {
      await ask(page, question);
      await lastReply(page, /./);
      expect(await fromEnd(page)).toBeLessThanOrEqual(2); // followed to the end
    }
    expect(await page.getByRole("log", { name: "Conversation" }).evaluate((log) => log.scrollHeight > log.clientHeight * 1.5)).toBe(true);

    // Reading further up while the next answer streams in: the reader is not moved. The run's request is held
    // while they scroll up, so the answer's start comes after it every time, as it does for a slow model.
    let intercepted!: (route: Route) => void;
    const held = new Promise<Route>((resolve) => (intercepted = resolve));
    await page.route(RUN_ROUTE, (route) => intercepted(route), { times: 1 });
    await ask(page, "what can you do?");
    expect(await fromEnd(page)).toBeLessThanOrEqual(2); // sending took the reader to their message
    await page.getByRole("log", { name: "Conversation" }).evaluate((log) => log.scrollTo({ top: 0 }));
    await (await held).continue();
    await lastReply(page, /./);
    expect(await page.getByRole("log", { name: "Conversation" }).evaluate((log) => log.scrollTop)).toBe(0);
    const latest = page.getByRole("button", { name: "New messages ↓" });
    expect(await latest.isVisible()).toBe(true);

    await latest.click();
    expect(await fromEnd(page)).toBeLessThanOrEqual(2);
    expect(await latest.count()).toBe(0);
    await context.close();
  });
});
