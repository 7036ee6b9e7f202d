import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { ask, lastAssistantText, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

describe("message actions in the panel", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("copies an answer's text, and says it did", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 860 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.server().url });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await ask(page, "find badge reader requests");
    const answer = await lastReply(page, /./);
    const copy = page.locator(".tether-message__copy").last();
    expect(await copy.textContent()).toBe("Copy");
    await copy.click();
    await expect.poll(() => copy.textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(answer);
    expect(answer).toBe(await lastAssistantText(page)); // the button is beside the answer, not in its text
    await context.close();
  });
});
