import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, contentHeading, lastActivity, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 860 };

/** The status badge of a request on the work request list. */
async function statusOnList(page: Page, requestId: string): Promise<string> {
  await page.getByRole("navigation", { name: "Menu" }).getByRole("link", { name: "Work request list" }).click();
  await expect.poll(() => contentHeading(page)).toBe("Work request list");
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: requestId, exact: true }) });
  return (await row.locator(".badge").textContent()) ?? "";
}

describe("approving in the Workdesk", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("closes R-1042 once the manager approves, and the list shows it closed", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    expect(await statusOnList(page, "R-1042")).toBe("Open");
    await ask(page, "close R-1042 as fixed");
    const card = page.getByRole("group", { name: "Approval needed" });
    await card.waitFor();
    expect(await card.textContent()).toContain('Close R-1042 "Replace broken badge reader at Gate 3" as "fixed"?');
    expect(await card.getByRole("textbox", { name: "Resolution" }).inputValue()).toBe("fixed");
    expect(await lastReply(page, /once you approve/)).toMatch(/I'll close R-1042/);
    await page.screenshot({ path: `${SCREENSHOTS}/approval.png` });

    await card.getByRole("button", { name: "Approve" }).click();
    expect(await lastReply(page, /is closed/)).toBe("R-1042 is closed (resolution: fixed).");
    expect(await card.count()).toBe(0);
    expect(await statusOnList(page, "R-1042")).toBe("Closed");
    await context.close();
  });

  it("leaves the request as it was when the manager rejects", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    const before = await statusOnList(page, "R-1005");
    await ask(page, "close R-1005 as fixed");
    const card = page.getByRole("group", { name: "Approval needed" });
    await card.getByRole("textbox", { name: "Comment (optional)" }).fill("needs a second look");
    await card.getByRole("button", { name: "Reject" }).click();
    expect(await lastReply(page, /didn't close/)).toBe(`I didn't close R-1005: the approval was rejected ("needs a second look").`);
    // Never a green "done": the timeline says it did not happen.
    const activity = await lastActivity(page, "closeWorkRequest");
    expect(activity.status).toBe("rejected");
    expect(activity.text).toContain("not done · rejected");
    expect(await statusOnList(page, "R-1005")).toBe(before);
    await context.close();
  });

  it("lets the user move on by typing: the open approval is cancelled and nothing runs", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    const before = await statusOnList(page, "R-1008");
    await ask(page, "close R-1008 as done");
    await page.getByRole("group", { name: "Approval needed" }).waitFor();
    await ask(page, "find R-1008");
    await lastReply(page, /I found 1 work request/);
    expect(await page.getByRole("group", { name: "Approval needed" }).count()).toBe(0);
    expect(await statusOnList(page, "R-1008")).toBe(before);
    await context.close();
  });
});
