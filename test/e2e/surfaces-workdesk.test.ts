import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, contentHeading, lastReply, navigations, openWorkdesk, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 900 };

/** The generated surface with this surface id, as the panel shows it. */
function surface(page: Page, surfaceId: string) {
  return page.locator(`section[aria-label="Generated view"][data-surface-id="${surfaceId}"]`);
}

describe("generated UI in the Workdesk panel", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("shows R-1042 as a card whose Open detail button starts a run that navigates, once", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    await ask(page, "show R-1042 as a card");
    const card = surface(page, "request-R-1042");
    await card.getByText("Replace broken badge reader at Gate 3").waitFor();
    expect(await card.textContent()).toContain("R-1042");
    await lastReply(page, /from the card/);
    await page.screenshot({ path: `${SCREENSHOTS}/surface-card.png` });

    const before = await navigations(page);
    await card.getByRole("button", { name: "Open detail" }).click();
    await expect.poll(() => contentHeading(page), { timeout: 20_000 }).toBe("Work request detail");
    // The detail screen loads its request after it opens.
    await expect.poll(() => page.getByRole("main", { name: "Content" }).textContent()).toContain("R-1042: Replace broken badge reader at Gate 3");
    const reply = await lastReply(page, /open now/);
    expect(reply).toBe("Work request detail is open now.");
    expect(await navigations(page)).toBe(before + 1);
    // The click is in the conversation, in the button's words.
    await expect.poll(() => page.getByRole("log", { name: "Conversation" }).locator(".tether-message--action").allTextContents()).toEqual(["Open detail"]);
    // Still one card, at its place: the next run did not draw it again.
    expect(await page.locator('section[aria-label="Generated view"]').count()).toBe(1);

    // The card is part of the thread: a reload shows it again, with the click after it, and it still works.
    await page.reload();
    await card.getByText("Replace broken badge reader at Gate 3").waitFor();
    expect(await page.getByRole("log", { name: "Conversation" }).locator(".tether-message--action").allTextContents()).toEqual(["Open detail"]);
    await card.getByRole("button", { name: "Close as fixed" }).click();
    await page.getByRole("group", { name: "Approval needed" }).waitFor({ timeout: 20_000 });
    await context.close();
  });

  it("asks for approval when Close as fixed is clicked", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    await ask(page, "show R-1005 as a card");
    const card = surface(page, "request-R-1005");
    await card.getByRole("button", { name: "Close as fixed" }).click();
    const approval = page.getByRole("group", { name: "Approval needed" });
    await approval.waitFor({ timeout: 20_000 });
    expect(await approval.textContent()).toContain("R-1005");
    await approval.getByRole("button", { name: "Reject" }).click();
    await lastReply(page, /didn't close/);
    await context.close();
  });

  it("shows a surface the renderer cannot draw as a small failure and reports it to the server", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    // Damage in transport, after the server validated: the title is no longer text.
    await page.route("**/agents/workdesk/run", async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace('"text":{"path":"/request/title"}', '"text":42');
      await route.fulfill({ response, body });
    });
    const reported = page.waitForRequest((request) => request.url().includes("/reports") && request.postData()?.includes('"renderer-error"') === true);
    await ask(page, "show R-1042 as a card");
    const failure = page.getByRole("note", { name: "View not shown" });
    await failure.waitFor({ timeout: 20_000 });
    expect(await failure.textContent()).toMatch(/could not be shown/);
    const request = await reported;
    const report = JSON.parse(request.postData() ?? "{}") as { surfaceId?: string; message?: string };
    expect(report.surfaceId).toBe("request-R-1042");
    expect(report.message).toMatch(/Text/);
    // The server kept it in the record of the run that produced the card.
    const recordUrl = request.url().replace(/\/reports$/, "/record");
    await expect
      .poll(() => page.evaluate(async (url) => JSON.stringify(await (await fetch(url)).json()), recordUrl), { timeout: 10_000 })
      .toMatch(/renderer-error[^]*request-R-1042/);
    await context.close();
  });
});
