import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

/** Relative luminance (0 black … 1 white) of an element's computed colour property. */
function luminance(page: Page, selector: string, property: "color" | "backgroundColor"): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((element, which) => {
      const [r, g, b] = getComputedStyle(element)
        [which].match(/\d+(\.\d+)?/g)!
        .map(Number) as [number, number, number];
      const linear = (channel: number) => ((channel /= 255) <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4);
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    }, property);
}

describe("the panel's stylesheet in light and dark", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 4 } });

  for (const scheme of ["light", "dark"] as const) {
    it(`follows the page's color-scheme: ${scheme}`, async () => {
      const context = await suite.browser().newContext({ viewport: { width: 1400, height: 860 }, colorScheme: scheme });
      const page = await openWorkdesk(context, suite.server().url);
      await signIn(page, "kim");
      await ask(page, "open the work request list");
      await lastReply(page, /open now/);
      const paper = await luminance(page, ".tether-panel", "backgroundColor");
      const ink = await luminance(page, ".tether-message--assistant", "color");
      if (scheme === "dark") expect({ paper: paper < 0.05, ink: ink > 0.6 }).toEqual({ paper: true, ink: true });
      else expect({ paper: paper > 0.9, ink: ink < 0.05 }).toEqual({ paper: true, ink: true });
      if (scheme === "dark") await page.screenshot({ path: `${SCREENSHOTS}/workdesk-dark.png` });
      await context.close();
    });
  }
});
