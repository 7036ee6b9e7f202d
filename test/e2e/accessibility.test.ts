import { describe, expect, it } from "vitest";
import { DESKTOP, PHONE, openRecipes } from "./recipes.ts";
import { seriousViolations } from "./axe.ts";
import { browserSuite } from "./suite.ts";
import { ask, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

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
