import { describe, expect, it } from "vitest";
import { recordClient, userMessage } from "../record/record-client.ts";
import { browserSuite } from "./suite.ts";
import { signIn } from "./workdesk.ts";

/**
 * A record holds what people, models and browsers wrote: markup in a message,
 * a tool name, a report's words, state and context. The viewer shows it as
 * text; nothing in it runs.
 */

const MARKUP = `<img src=x onerror="window.__hostile=1"><script>window.__hostile=2</script>`;

describe("the run-record viewer with hostile content", () => {
  const suite = browserSuite({ playbook: { chunkDelayMs: 0 } });

  it("shows markup from a message, a report and the input as text, and runs none of it", async () => {
    const client = recordClient(suite.server().url, suite.server().token);
    const threadId = "viewer-hostile";
    await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r1`,
      messages: [userMessage(`${threadId}-u1`, `open the work request list ${MARKUP}`)],
      state: { note: MARKUP },
      context: [{ description: MARKUP, value: MARKUP }],
    });
    expect(await client.report("kim", `${threadId}-r1`, { kind: "renderer-error", surfaceId: "s<b>1</b>", message: MARKUP, details: { html: MARKUP } })).toBe(
      202,
    );
    expect(
      await client.report("kim", `${threadId}-r1`, {
        kind: "tool-outcome",
        toolCallId: "call-hostile",
        toolName: "<svg onload=window.__hostile=3>",
        outcome: { status: "failed", reason: "x", message: MARKUP },
      }),
    ).toBe(202);

    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(suite.server().url);
    await signIn(page, "kim");
    await page.goto(`${suite.server().url}/runs/?thread=${threadId}&run=${threadId}-r1`);
    await page.getByRole("heading", { level: 2, name: `Run ${threadId}-r1` }).waitFor();

    // The markup is on the page as words…
    await expect.poll(() => page.getByText("window.__hostile=1", { exact: false }).count()).toBeGreaterThan(0);
    expect(await page.getByText("<svg onload=window.__hostile=3>", { exact: false }).count()).toBeGreaterThan(0);
    // …and not as elements, and none of it ran.
    expect(await page.locator("main img, main script, main svg[onload], main b").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __hostile?: number }).__hostile)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
