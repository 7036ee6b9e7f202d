import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploymentServices, startDeployment, type Deployment } from "../helpers/behind-nginx.ts";
import { launchChromium } from "./browser.ts";
import { ask, contentHeading, lastActivity, lastReply, navigations, openWorkdesk, signIn } from "./workdesk.ts";

/**
 * The Workdesk story as people would use a deployment of several instances:
 * Chromium talks only to nginx, which spreads the page's requests (the
 * run, its events, the app's own API) over two instances on PostgreSQL and Redis.
 */

const VIEWPORT = { width: 1400, height: 860 };
const { skipped, schemas, databaseUrl, redisUrl } = await deploymentServices("The Workdesk story behind nginx, in Chromium");

describe.skipIf(skipped)("the Workdesk story through nginx in front of two instances", () => {
  let deployment: Deployment;
  let browser: Browser;

  beforeAll(async () => {
    deployment = await startDeployment({ databaseUrl, redisUrl, schema: schemas!.make("nginx_e2e"), chunkDelayMs: 4 });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await deployment?.stop();
    await schemas?.dropAll();
  });

  it("opens the work request list for kim, once, and says so only once it shows", async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, deployment.url);
    await signIn(page, "kim");
    await ask(page, "open the work request list");
    expect(await lastReply(page, /Work request list is open now\./)).toBe("Work request list is open now.");
    expect(await contentHeading(page)).toBe("Work request list");
    expect(page.url()).toBe(`${deployment.url}/work-requests`);
    expect(await lastActivity(page, "navigateToScreen")).toMatchObject({ status: "succeeded" });
    expect(await navigations(page)).toBe(1);
    await context.close();
  });

  it("closes R-1042 once lee approves, and the list shows it closed whichever instance serves it", async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, deployment.url);
    await signIn(page, "lee");
    await ask(page, "close R-1042 as fixed");
    const card = page.getByRole("group", { name: "Approval needed" });
    await card.waitFor();
    expect(await lastReply(page, /once you approve/)).toMatch(/I'll close R-1042/);
    await card.getByRole("button", { name: "Approve" }).click();
    expect(await lastReply(page, /is closed/)).toBe("R-1042 is closed (resolution: fixed).");

    // Each load of the list is one request, and nginx alternates: both instances show it closed.
    for (let load = 0; load < 2; load++) {
      await page.getByRole("navigation", { name: "Menu" }).getByRole("link", { name: "Dashboard" }).click();
      await page.getByRole("navigation", { name: "Menu" }).getByRole("link", { name: "Work request list" }).click();
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "R-1042", exact: true }) });
      await expect.poll(() => row.locator(".badge").textContent()).toBe("Closed");
    }

    // A reload re-reads the thread through whichever instance nginx picks: the conversation is all there.
    await page.reload();
    expect(await lastReply(page, /is closed/)).toBe("R-1042 is closed (resolution: fixed).");
    await context.close();
  });
});
