import type { BrowserContext, Locator, Page, Request } from "playwright-core";
import { expect } from "vitest";

export { SCREENSHOTS, ask, lastActivity, lastReply } from "./workdesk.ts";

export const DESKTOP = { width: 1400, height: 860 };
export const PHONE = { width: 390, height: 844 };

export type Profile = "guest" | "sam" | "vera";
const LABELS: Record<Profile, RegExp> = { guest: /^Guest/, sam: /^Sam/, vera: /^Vera/ };

/** The Recipes page, signed in as `profile` (a fresh context starts as the automatic guest), with an empty conversation. */
export async function openRecipes(context: BrowserContext, url: string, profile: Profile, query = ""): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${url}/recipes/${query}`);
  // Nobody was signed in: the page signed in as a guest by itself.
  await expect.poll(() => page.getByRole("radio", { name: LABELS.guest }).getAttribute("aria-checked"), { timeout: 15_000 }).toBe("true");
  if (profile !== "guest") await switchProfile(page, profile);
  return page;
}

export async function switchProfile(page: Page, profile: Profile): Promise<void> {
  await page.getByRole("radio", { name: LABELS[profile] }).click();
  await expect.poll(() => page.getByRole("radio", { name: LABELS[profile] }).getAttribute("aria-checked")).toBe("true");
  await expect.poll(() => page.getByRole("log", { name: "Conversation" }).textContent()).toBe("");
}

/** The latest set of recipe cards in the conversation, one button per card. */
export function lastCards(page: Page): Locator {
  return page.getByRole("log", { name: "Conversation" }).getByRole("list", { name: "Recipe suggestions" }).last().getByRole("button");
}

/** A GET of the Recipes API as the page's signed-in person: the status and the body. */
export async function apiGet(page: Page, path: string): Promise<{ status: number; body: any }> {
  return page.evaluate(async (url) => {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    return { status: response.status, body: await response.json() };
  }, `/api/recipes${path}`);
}

/** Every run request the page sends, as the body it posted. */
export function recordRuns(page: Page): Array<{ tools: Array<{ name: string; description: string }>; context: Array<{ description: string; value: string }> }> {
  const runs: ReturnType<typeof recordRuns> = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && request.url().endsWith("/api/agents/recipes/run")) runs.push(request.postDataJSON());
  });
  return runs;
}

/** Counts the page's POSTs to a Recipes API path (orders, cookbook). */
export function countPosts(page: Page, path: string): () => number {
  let count = 0;
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === `/api/recipes${path}`) count++;
  });
  return () => count;
}
