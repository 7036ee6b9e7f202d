import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, openRecipes } from "./recipes.ts";
import { browserSuite } from "./suite.ts";
import { ask, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** axe-core's serious and critical findings on the page as it is now: rule, what it asks, and where. */
async function seriousViolations(page: Page): Promise<Array<{ rule: string; help: string; targets: string[] }>> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<any> }> } }).axe;
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  });
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, help: violation.help, targets: violation.nodes.map((node: { target: string[] }) => node.target.join(" ")) }));
}

describe("accessibility, checked by axe-core", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  for (const scheme of ["light", "dark"] as const) {
    it(`the Workdesk (${scheme}): sign-in, the welcome, a conversation with tool lines, a server tool's card, and an approval card`, async () => {
      const context = await suite.browser().newContext({ viewport: DESKTOP, colorScheme: scheme });
      const page = await openWorkdesk(context, suite.server().url);
      await page.getByRole("button", { name: "Sign in as lee" }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await signIn(page, "lee");
      await page.getByRole("list", { name: "Suggestions" }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await ask(page, "open the work request list");
      await lastReply(page, /open now/);
      // A server tool drawn by the app (useToolRenderer): the record search's results.
      await ask(page, "find badge reader requests");
      await lastReply(page, /I found/);
      await ask(page, "close R-1042 as fixed");
      await page.getByRole("group", { name: "Approval needed" }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });
  }

  it("Recipes on a desktop and on a phone, with cards in the conversation", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await suite.browser().newContext({ viewport });
      const page = await openRecipes(context, suite.server().url, "sam");
      expect(await seriousViolations(page)).toEqual([]);
      await ask(page, "something quick with leftover rice");
      await lastReply(page, /./);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }
  });
});
