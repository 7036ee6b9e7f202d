import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { ask, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 860 };

/** Presses Enter in the composer as a keyboard event with the given composing state (what an input method sends). */
function pressEnterInComposer(page: Page, isComposing: boolean): Promise<void> {
  return page.getByRole("textbox", { name: "Message the assistant" }).evaluate((box, composing) => {
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", code: "Enter", isComposing: composing, bubbles: true, cancelable: true }));
  }, isComposing);
}

const userMessages = (page: Page) => page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "You said" }).count();

/** What the focused element is: the approval card, the composer, or something else. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (active?.matches("[aria-label='Approval needed']")) return "approval card";
    if (active?.matches("textarea[aria-label='Message the assistant']")) return "composer";
    return active?.tagName.toLowerCase() ?? "nothing";
  });

describe("the panel with a keyboard", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("does not send on the Enter that confirms an input method's composition, and sends on a plain Enter", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await page.getByRole("textbox", { name: "Message the assistant" }).fill("업무 요청 목록 열");
    await pressEnterInComposer(page, true);
    await page.waitForTimeout(300);
    expect(await userMessages(page)).toBe(0);
    expect(await page.getByRole("textbox", { name: "Message the assistant" }).inputValue()).toBe("업무 요청 목록 열");
    // The same event without composition sends: the check above could fail.
    await page.getByRole("textbox", { name: "Message the assistant" }).fill("open the work request list");
    await pressEnterInComposer(page, false);
    await expect.poll(() => userMessages(page)).toBe(1);
    await context.close();
  });

  it("focuses the approval card when it appears, never approves on Enter in its fields, and gives focus back to the composer", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "lee");
    await ask(page, "close R-1005 as fixed");
    const card = page.getByRole("group", { name: "Approval needed" });
    await card.waitFor();
    await expect.poll(() => focused(page)).toBe("approval card");
    // Announced, for someone who does not see it appear.
    expect(await page.getByRole("status").filter({ hasText: "Approval needed" }).textContent()).toBe(
      'Approval needed: Close R-1005 "Fix wobbly table in canteen" as "fixed"?',
    );

    for (const field of ["Resolution", "Comment (optional)"]) {
      await card.getByRole("textbox", { name: field }).press("End");
      await card.getByRole("textbox", { name: field }).press("Enter");
    }
    await page.waitForTimeout(500);
    expect(await card.count()).toBe(1);
    expect(await lastReply(page, /once you approve/)).toMatch(/I'll close R-1005/);

    await card.getByRole("button", { name: "Reject" }).click();
    await lastReply(page, /didn't close/);
    await expect.poll(() => focused(page)).toBe("composer");
    await context.close();
  });
});
