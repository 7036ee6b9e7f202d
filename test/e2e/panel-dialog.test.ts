import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, contentHeading, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

/** Where focus is: inside the assistant panel, on its launcher, or elsewhere on the page. */
const focusIsIn = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (active?.closest(".tether-panel")) return "panel";
    if (active?.matches(".tether-launcher")) return "launcher";
    return active?.tagName.toLowerCase() ?? "nothing";
  });

const panel = (page: Page) => page.getByRole("dialog", { name: "Assistant" });
const launcher = (page: Page) => page.getByRole("button", { name: "Assistant", exact: true });

describe("the panel as a dialog, closed and opened again", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("as a window: focus moves in and stays in on Tab and Shift+Tab; Escape, the backdrop and the close button close it; focus returns to the launcher", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 860 } });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await page.getByRole("radio", { name: "Window" }).click();
    await expect.poll(() => panel(page).getAttribute("aria-modal")).toBe("true");
    expect(await focusIsIn(page)).toBe("panel");
    for (let press = 0; press < 12; press++) {
      await page.keyboard.press(press % 3 === 2 ? "Shift+Tab" : "Tab");
      expect(await focusIsIn(page)).toBe("panel");
    }

    await page.keyboard.press("Escape");
    await expect.poll(() => panel(page).isVisible()).toBe(false);
    expect(await focusIsIn(page)).toBe("launcher");
    expect(await launcher(page).getAttribute("aria-expanded")).toBe("false");

    await launcher(page).click();
    await expect.poll(() => panel(page).isVisible()).toBe(true);
    expect(await focusIsIn(page)).toBe("panel");
    await page.mouse.click(80, 700); // the backdrop, over the menu
    await expect.poll(() => panel(page).isVisible()).toBe(false);
    expect(await focusIsIn(page)).toBe("launcher");

    await launcher(page).click();
    await page.getByRole("button", { name: "Close Assistant" }).click();
    await expect.poll(() => panel(page).isVisible()).toBe(false);
    expect(await focusIsIn(page)).toBe("launcher");
    await context.close();
  });

  it("full screen: a dialog too, closed by Escape; Ctrl+/ opens and closes the panel, and it keeps the conversation and the draft", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 860 } });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await ask(page, "find badge reader requests");
    const answer = await lastReply(page, /./);
    await page.getByRole("radio", { name: "Full screen" }).click();
    await expect.poll(() => panel(page).getAttribute("aria-modal")).toBe("true");
    await page.getByRole("textbox", { name: "Message the assistant" }).fill("half a thought");
    await page.keyboard.press("Escape");
    await expect.poll(() => panel(page).isVisible()).toBe(false);
    // The screen behind is the app's again: its content takes the panel's column.
    expect(await page.getByRole("main", { name: "Content" }).evaluate((main) => main.getBoundingClientRect().right)).toBeGreaterThan(1300);

    await page.keyboard.press("Control+/");
    await expect.poll(() => panel(page).isVisible()).toBe(true);
    expect(await focusIsIn(page)).toBe("panel");
    expect(await page.getByRole("textbox", { name: "Message the assistant" }).inputValue()).toBe("half a thought");
    expect(await page.getByRole("log", { name: "Conversation" }).textContent()).toContain(answer);
    await page.keyboard.press("Control+/");
    await expect.poll(() => panel(page).isVisible()).toBe(false);
    await context.close();
  });
});

describe("the Workdesk on a phone (390 × 844)", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  it("fits the screen; the assistant is a sheet that opens the screen behind it, says what it opened, and closes to show it", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const content = page.getByRole("main", { name: "Content" });
    expect((await content.boundingBox())!.width).toBeGreaterThan(350);
    // Closed at first, behind its launcher: the phone shows the app.
    const sheet = page.getByRole("dialog", { name: "Assistant" });
    expect(await sheet.isVisible()).toBe(false);

    await launcher(page).tap();
    await expect.poll(() => sheet.isVisible()).toBe(true);
    await ask(page, "open the work request list");
    await lastReply(page, /open now/);
    // The list opened behind the sheet, and the sheet says what opened.
    expect(await contentHeading(page)).toBe("Work request list");
    expect(await sheet.textContent()).toContain("Opened Work request list");
    const heading = content.getByRole("heading", { level: 1 });
    const covered = () =>
      heading.evaluate((element) => {
        const box = element.getBoundingClientRect();
        return !element.contains(document.elementFromPoint(box.left + 10, box.top + box.height / 2));
      });
    const sheetBox = (await sheet.boundingBox())!;
    expect(sheetBox.width).toBe(390);
    expect(sheetBox.y + sheetBox.height).toBeCloseTo(844, 0);
    await page.screenshot({ path: `${SCREENSHOTS}/workdesk-phone-sheet.png` });

    await page.getByRole("button", { name: "Close Assistant" }).tap();
    await expect.poll(() => sheet.isVisible()).toBe(false);
    expect(await covered()).toBe(false);
    await page.screenshot({ path: `${SCREENSHOTS}/workdesk-phone-opened.png` });
    await context.close();
  });
});
