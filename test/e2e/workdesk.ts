import { mkdirSync } from "node:fs";
import { expect } from "vitest";
import type { BrowserContext, Page } from "playwright-core";

export const SCREENSHOTS = "docs/screenshots";
mkdirSync(SCREENSHOTS, { recursive: true });

/** A page of the Workdesk that counts its own history pushes (navigations), per tab and across reloads. */
export async function openWorkdesk(context: BrowserContext, url: string): Promise<Page> {
  await context.addInitScript(() => {
    const push = history.pushState.bind(history);
    history.pushState = (...args: Parameters<History["pushState"]>) => {
      sessionStorage.setItem("test:navigations", String(Number(sessionStorage.getItem("test:navigations") ?? 0) + 1));
      return push(...args);
    };
  });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(url);
  return page;
}

export async function signIn(page: Page, user: string): Promise<void> {
  await page.getByRole("button", { name: `Sign in as ${user}` }).click();
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
}

/** Sends a message, and returns once the conversation shows it (the run has begun: a reply read after this is the new one). */
export async function ask(page: Page, text: string): Promise<void> {
  const asked = page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "You said" });
  const before = await asked.count();
  await sendMessage(page, text);
  await expect.poll(() => asked.count(), { timeout: 15_000 }).toBeGreaterThan(before);
}

/** Types and sends a message, and touches the page no more (for tests that hold the run request). */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.getByRole("textbox", { name: "Message the assistant" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

/** Waits until the assistant is done and its last words match. */
export async function lastReply(page: Page, expected: RegExp, timeout = 20_000): Promise<string> {
  const log = page.getByRole("log", { name: "Conversation" });
  await expect
    .poll(async () => (await log.getAttribute("aria-busy")) === "false" && expected.test(await lastAssistantText(page)), { timeout, interval: 100 })
    .toBe(true);
  return lastAssistantText(page);
}

export async function lastAssistantText(page: Page): Promise<string> {
  const replies = page.getByRole("log", { name: "Conversation" }).getByRole("article", { name: "Assistant said" });
  const count = await replies.count();
  return count === 0 ? "" : ((await replies.nth(count - 1).textContent()) ?? "");
}

/** The timeline entry of the latest call to a tool: its status line. */
export async function lastActivity(page: Page, toolName: string): Promise<{ status: string | null; text: string }> {
  const entries = page.locator(".tether-activity", { hasText: toolName });
  const last = entries.nth((await entries.count()) - 1);
  return { status: await last.getAttribute("data-status"), text: (await last.textContent()) ?? "" };
}

/** The words on the latest call's timeline line (the codes are in its details). */
export async function lineWords(page: Page, toolName: string): Promise<string> {
  const entries = page.locator(".tether-activity", { hasText: toolName });
  return (
    (await entries
      .nth((await entries.count()) - 1)
      .locator(".tether-activity__words")
      .textContent()) ?? ""
  );
}

export async function navigations(page: Page): Promise<number> {
  return page.evaluate(() => Number(sessionStorage.getItem("test:navigations") ?? 0));
}

export async function contentHeading(page: Page): Promise<string> {
  return (await page.getByRole("main", { name: "Content" }).getByRole("heading", { level: 1 }).textContent()) ?? "";
}

/** Everything the conversation says, in order. */
export const said = (page: Page) => page.getByRole("log", { name: "Conversation" }).getByRole("article").allTextContents();

/** Another tab of the same browser on the same thread (signed in by the first); `stale` takes away its way of hearing of runs. */
export async function secondTab(context: BrowserContext, url: string, stale = false): Promise<Page> {
  const page = await context.newPage();
  if (stale) await page.addInitScript(() => delete (window as { BroadcastChannel?: unknown }).BroadcastChannel);
  await page.goto(url);
  await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
  return page;
}
