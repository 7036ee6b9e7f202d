import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_COOKIE } from "../../apps/demo-identity/demo-identity.ts";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, contentHeading, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 900 };

/** The chain's entries: each run's link text, in order. */
function chainLinks(page: Page) {
  return page.getByRole("navigation", { name: "Runs in this thread" }).getByRole("link");
}

/** The run shown: its id, from the heading "Run <runId>". */
async function shownRunId(page: Page): Promise<string> {
  const heading = page.getByRole("heading", { level: 2, name: /^Run / });
  await heading.waitFor();
  return ((await heading.textContent()) ?? "").replace(/^Run /, "").trim();
}

function section(page: Page, title: string) {
  return page.getByRole("region", { name: new RegExp(`^${title}`) });
}

/** Clicks a link of the viewer and waits until its page is the one shown (every link loads a page). */
async function follow(page: Page, link: Locator): Promise<void> {
  const href = await link.getAttribute("href");
  await link.click();
  await page.waitForURL((url) => `${url.pathname}${url.search}` === href);
}

/** The chain entry whose trigger summary matches, as a link. */
function runEntry(page: Page, summary: RegExp) {
  return chainLinks(page).filter({ hasText: summary });
}

describe("the run-record viewer at /runs/", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 2 } });
  let threadUrl = "";
  let firstRunUrl = "";

  it("shows the chain of a Workdesk conversation (navigation, a card and its click, an approval) with what started each run", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    await ask(page, "open the work request list");
    await lastReply(page, /Work request list is open now\./);
    await ask(page, "show R-1042 as a card");
    const card = page.locator('section[aria-label="Generated view"][data-surface-id="request-R-1042"]');
    await card.getByText("Replace broken badge reader at Gate 3").waitFor();
    await lastReply(page, /from the card/);
    await card.getByRole("button", { name: "Open detail" }).click();
    await expect.poll(() => contentHeading(page), { timeout: 20_000 }).toBe("Work request detail");
    await lastReply(page, /open now/);
    await ask(page, "close R-1042 as fixed");
    const approval = page.getByRole("group", { name: "Approval needed" });
    await approval.waitFor();
    await approval.getByRole("button", { name: "Approve" }).click();
    await lastReply(page, /is closed/);

    // The Workdesk's top bar links to this conversation's records.
    await page.getByRole("link", { name: "Run record" }).click();
    await page.waitForURL(/\/runs\/\?thread=/);
    threadUrl = page.url();
    await chainLinks(page).first().waitFor();
    const entries = await chainLinks(page).allTextContents();
    expect(entries[0]).toMatch(/^1\. open the work request list.*user-message/);
    expect(entries[1]).toMatch(/^2\. .*tool-result/);
    expect(entries.some((entry) => /show R-1042 as a card.*user-message/.test(entry))).toBe(true);
    expect(entries.some((entry) => /ui-action/.test(entry))).toBe(true);
    expect(entries.at(-2)).toMatch(/close R-1042 as fixed.*user-message.*waiting for approval/);
    expect(entries.at(-1)).toMatch(/resume/);
    expect(entries.join("\n")).not.toMatch(/incomplete/);
    await page.getByText("Choose a run to see its timeline.").waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/runs-chain.png` });
    await context.close();
  });

  it("shows a run's timeline, and follows its next and previous links", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    await page.goto(threadUrl);
    await follow(page, runEntry(page, /open the work request list/));
    const firstRunId = await shownRunId(page);
    firstRunUrl = page.url();
    expect(await runEntry(page, /open the work request list/).getAttribute("aria-current")).toBe("page");

    for (const title of ["Started by", "Given to the agent", "Model calls", "Tool calls", "Browser reports", "Outcome", "Events as sent"]) {
      await section(page, title).waitFor();
    }
    expect(await section(page, "Started by").textContent()).toMatch(/user-message.*No previous run/);
    const tools = section(page, "Tool calls");
    expect(await tools.getByRole("listitem", { name: "Tool call lookupScreens" }).textContent()).toMatch(/server.*ran on the server/);
    const navigate = tools.getByRole("listitem", { name: "Tool call navigateToScreen" });
    // Its outcome travelled as the tool message of the next run.
    await expect
      .poll(() => navigate.textContent())
      .toMatch(/browser.*handed to the browser[^]*Outcome the browser sent with the next run[^]*"status": "succeeded"[^]*led to run/);
    const models = section(page, "Model calls");
    expect(await models.getByRole("listitem").first().textContent()).toMatch(/Call 1 · tether\.playbook.*First token.*Total.*Tokens/);
    // A follow-up tool's outcome is not a report: it is the tool message that started the next run.
    expect(await section(page, "Browser reports").textContent()).toContain("The browser reported nothing for this run.");
    const events = section(page, "Events as sent").getByRole("row");
    expect(await events.nth(1).textContent()).toMatch(/^1RUN_STARTED/);
    expect(await events.last().textContent()).toMatch(/RUN_FINISHED/);
    await page.screenshot({ path: `${SCREENSHOTS}/runs-timeline.png`, fullPage: true });

    // The outcome led to the next run, which names this one as its previous.
    const ledTo = navigate.getByRole("link", { name: /led to run/ });
    const nextRunId = ((await ledTo.textContent()) ?? "").replace("led to run", "").trim();
    await follow(page, section(page, "Started by").getByRole("link", { name: /Next run/ }));
    expect(await shownRunId(page)).toBe(nextRunId);
    expect(await section(page, "Started by").textContent()).toMatch(/tool-result.*a browser tool's outcome/);
    await follow(page, section(page, "Started by").getByRole("link", { name: /Previous run/ }));
    expect(await shownRunId(page)).toBe(firstRunId);
    await context.close();
  });

  it("shows the approval the close run asked and the answer its next run carried, and the card's validation and click", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    await page.goto(threadUrl);
    await follow(page, runEntry(page, /close R-1042 as fixed/));
    await shownRunId(page);
    const approvals = section(page, "Approvals");
    await expect.poll(() => approvals.textContent()).toMatch(/closeWorkRequest approved[^]*R-1042[^]*answered in run/);
    await follow(page, approvals.getByRole("link", { name: /answered in run/ }));
    expect(await section(page, "Started by").textContent()).toMatch(/resume.*an approval answer.*approved/);
    expect(await section(page, "Model calls").textContent()).toContain("R-1042 is closed (resolution: fixed).");

    await follow(page, runEntry(page, /show R-1042 as a card/));
    await shownRunId(page);
    const surface = section(page, "Surfaces").getByRole("listitem", { name: "Surface request-R-1042" });
    expect(await surface.textContent()).toMatch(/rendered.*Attempt 1 of 3: rendered/);
    const click = section(page, "Browser reports").getByRole("listitem", { name: "Click" });
    expect(await click.textContent()).toMatch(/request-R-1042[^]*open_detail/);
    await follow(page, click.getByRole("link", { name: /led to run/ }));
    expect(await section(page, "Started by").textContent()).toMatch(/ui-action.*Clicked open_detail on surface request-R-1042/);
    await context.close();
  });

  it("loads the events page by page with Load more", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    await page.goto(`${firstRunUrl}&limit=3`);
    const events = section(page, "Events as sent");
    await events.waitFor();
    expect(await events.getByRole("row").count()).toBe(1 + 3);
    await events.getByRole("button", { name: "Load more events" }).click();
    await expect.poll(() => events.getByRole("row").count()).toBe(1 + 6);
    const seqs = (await events.getByRole("row").allTextContents()).slice(1).map((row) => Number.parseInt(row, 10));
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
    await context.close();
  });

  it("reads well on a phone (390 px)", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // Signed in as the Workdesk's sign-in would (its cookie), since the Workdesk itself is laid out for wider screens.
    await context.addCookies([{ name: DEMO_COOKIE, value: suite.server().token("lee"), url: suite.server().url }]);
    const page = await context.newPage();
    await page.goto(firstRunUrl);
    await shownRunId(page);
    await section(page, "Events as sent").waitFor();
    // Nothing wider than the screen: the page does not scroll sideways (listed by what sticks out, if anything does).
    const sticking = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((element) => element.getBoundingClientRect().right > 391)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}: ${(element.textContent ?? "").slice(0, 40)}`),
    );
    expect(sticking).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Below the chain, the run: its heading at the top of the screen.
    await page.getByRole("heading", { level: 2, name: /^Run / }).evaluate((heading) => heading.scrollIntoView());
    await page.screenshot({ path: `${SCREENSHOTS}/runs-mobile.png` });
    await context.close();
  });

  it("tells another user there is no such run, and someone signed out to sign in", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.goto(firstRunUrl);
    await page.getByRole("heading", { name: "Sign in to see run records" }).waitFor();
    expect(await page.getByRole("link", { name: "Sign in on the Workdesk" }).getAttribute("href")).toBe("/");

    await page.goto(suite.server().url);
    await signIn(page, "park");
    await page.goto(firstRunUrl.replace(/thread=[^&]+&/, ""));
    await page.getByRole("heading", { name: "No such run (or not yours)" }).waitFor();
    await page.goto(threadUrl);
    await page.getByRole("heading", { name: "No such thread (or not yours)" }).waitFor();
    await context.close();
  });
});
