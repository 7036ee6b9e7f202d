import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { ask, contentHeading, lastReply, navigations, openWorkdesk, said, secondTab, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 860 };

describe("a conversation open in two tabs", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("every tab sees a run another tab started, live, and only the tab that started it acts", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const first = await openWorkdesk(context, suite.server().url);
    await signIn(first, "lee");
    const second = await secondTab(context, suite.server().url);

    await ask(first, "open the work request list");
    await lastReply(first, /open now/);
    await expect.poll(() => said(second), { timeout: 15_000 }).toEqual(await said(first));
    expect(await contentHeading(first)).toBe("Work request list");
    expect(await contentHeading(second)).toBe("Dashboard"); // it watched; the screen was the first tab's to open
    expect(await navigations(second)).toBe(0);

    // An approval asked for in the first tab shows in the second too.
    await ask(first, "close R-1042 as fixed");
    await first.getByRole("group", { name: "Approval needed" }).waitFor();
    await second.getByRole("group", { name: "Approval needed" }).waitFor({ timeout: 15_000 });
    await context.close();
  });

  it("a tab that fell behind is told in words, shown the approval it missed, and keeps its message", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const first = await openWorkdesk(context, suite.server().url);
    await signIn(first, "lee");
    const stale = await secondTab(context, suite.server().url, true);

    await ask(first, "close R-1042 as fixed");
    await first.getByRole("group", { name: "Approval needed" }).waitFor();
    expect(await stale.getByRole("group", { name: "Approval needed" }).count()).toBe(0); // it heard nothing

    await stale.getByRole("textbox", { name: "Message the assistant" }).fill("find badge reader requests");
    await stale.getByRole("button", { name: "Send" }).click();
    const alert = stale.getByRole("alert");
    await expect.poll(() => alert.textContent(), { timeout: 15_000 }).toContain("The conversation moved on in another window and now waits for an approval");
    expect(await alert.textContent()).not.toMatch(/int-|resume/);
    await stale.getByRole("group", { name: "Approval needed" }).waitFor();
    expect(await stale.getByRole("textbox", { name: "Message the assistant" }).inputValue()).toBe("find badge reader requests");
    expect(await said(stale)).toContain("close R-1042 as fixed");
    await context.close();
  });
});
