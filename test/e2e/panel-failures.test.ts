import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, lastReply, openWorkdesk, sendMessage, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 860 };
const RUN_ROUTE = "**/api/agents/workdesk/run";

const composer = (page: Page) => page.getByRole("textbox", { name: "Message the assistant" });
const asked = (page: Page, text: string) => page.getByRole("article", { name: "You said" }).filter({ hasText: text });
const idle = (page: Page) => expect.poll(() => page.getByRole("log", { name: "Conversation" }).getAttribute("aria-busy"), { timeout: 20_000 }).toBe("false");

/** The statuses of the thread's runs as the server stored them. */
const storedRuns = (page: Page) =>
  page.evaluate(async () => {
    const response = await fetch(`/api/threads/${localStorage.getItem("workdesk:thread:kim")}`);
    if (response.status === 404) return []; // the server never heard of the thread
    const thread = await response.json();
    return thread.runs.map((run: { status: string }) => run.status);
  });

describe("failures in the panel", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 30 } });

  it("a send that never reached the server keeps the draft, marks the message not sent with the reason, and Retry sends it once", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await page.route(RUN_ROUTE, (route) => route.abort("internetdisconnected"));
    await sendMessage(page, "find badge reader requests");
    // The session looks for the run and posts it again for about 20 s (a server restarting), then gives up.
    await expect.poll(() => page.getByRole("alert").textContent(), { timeout: 40_000 }).toContain("Not sent: Couldn't reach the server.");
    expect(await composer(page).inputValue()).toBe("find badge reader requests");
    expect(await page.locator(".tether-message--unsent").count()).toBe(1);
    expect(await storedRuns(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/panel-failed-send.png` });

    await page.unroute(RUN_ROUTE);
    await page.getByRole("button", { name: "Retry" }).click();
    await lastReply(page, /./);
    // Sent once: one message in the log, one run on the server, and nothing left of the failure.
    expect(await asked(page, "find badge reader requests").count()).toBe(1);
    expect(await storedRuns(page)).toEqual(["finished"]);
    expect(await page.locator(".tether-message--unsent, .tether-panel__error").count()).toBe(0);
    await context.close();
  });

  it("a run the server refused says why in its words; sending again replaces the unsent message, and the error clears", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await page.route(
      RUN_ROUTE,
      (route) =>
        route.fulfill({
          status: 409,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "run_in_progress", message: "This conversation is answering in another window." } }),
        }),
      { times: 1 },
    );
    await sendMessage(page, "open the work request list");
    await expect
      .poll(() => page.getByRole("alert").textContent(), { timeout: 10_000 })
      .toBe("Not sent: This conversation is answering in another window. Retry");
    // The person edits the kept draft and sends that instead: the unsent message leaves the log.
    await composer(page).fill("find badge reader requests");
    await page.getByRole("button", { name: "Send" }).click();
    await lastReply(page, /./);
    expect(await asked(page, "open the work request list").count()).toBe(0);
    expect(await asked(page, "find badge reader requests").count()).toBe(1);
    expect(await page.getByRole("alert").count()).toBe(0);
    await context.close();
  });

  it("marks a stopped answer as stopped", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await sendMessage(page, "find badge reader requests");
    await expect.poll(() => page.getByRole("article", { name: "Assistant said" }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Stop" }).click();
    await idle(page);
    expect(await storedRuns(page)).toEqual(["cancelled"]);
    expect(await page.locator(".tether-message__mark").allTextContents()).toEqual(["Stopped: the answer is incomplete."]);
    await context.close();
  });
});

describe("Stop after a reload", () => {
  // Slow enough that the answer is still coming when the page is back.
  const suite = browserSuite({ playbook: { chunkDelayMs: 250 } });

  it("still works for the run this tab started", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await sendMessage(page, "find badge reader requests");
    await expect.poll(() => page.getByRole("article", { name: "Assistant said" }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.reload();
    const stop = page.getByRole("button", { name: "Stop" });
    await stop.waitFor({ timeout: 15_000 });
    await stop.click();
    await idle(page);
    expect(await storedRuns(page)).toEqual(["cancelled"]);
    await context.close();
  });
});
