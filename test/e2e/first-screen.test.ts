import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";

/**
 * The Workdesk's first screen loads what it needs: the sign-in page is drawn
 * by the entry chunk alone (React and the page), while the signed-in shell,
 * with the assistant and its AG-UI client, is a chunk of its own.
 */
describe("the Workdesk's first screen", () => {
  const suite = browserSuite();

  it("signs in with the shell chunk held back, and shows the app once it arrives", async () => {
    const context = await suite.browser().newContext();
    const page = await context.newPage();
    const scripts: Array<{ url: string; bytes: number }> = [];
    page.on("response", async (response) => {
      if (response.url().endsWith(".js")) scripts.push({ url: response.url(), bytes: (await response.body()).length });
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/shell-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });

    await page.goto(suite.server().url);
    await page.getByRole("button", { name: "Sign in as kim" }).waitFor();
    const entry = scripts.filter((script) => /\/assets\/index-[^/]+\.js$/.test(script.url));
    expect(entry).toHaveLength(1);
    // React, the sign-in and the API helpers; the assistant's 500 kB are elsewhere.
    expect(entry[0]!.bytes).toBeLessThan(300_000);

    await page.getByRole("button", { name: "Sign in as kim" }).click();
    await expect.poll(() => page.getByText("Loading…").isVisible()).toBe(true);
    release();
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    expect(await page.getByRole("region", { name: "Assistant" }).isVisible()).toBe(true);
    await context.close();
  });
});
