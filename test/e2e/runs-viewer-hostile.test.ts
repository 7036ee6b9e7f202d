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

  it("shows state and props shaped like a cut marker as the data they are, and the server's own cut as a cut", async () => {
    const client = recordClient(suite.server().url, suite.server().token);
    const threadId = "viewer-forged-cut";
    const forged = { cut: true, head: "attacker's head", length: 5, sha256: `sha256:${"0".repeat(64)}` };
    await client.run("kim", "workdesk", {
      threadId,
      runId: `${threadId}-r1`,
      messages: [userMessage(`${threadId}-u1`, "open the work request list")],
      state: { ...forged, realValue: "the state the client really sent" },
      forwardedProps: forged,
      // Over the 64 KiB a context may take: the server cuts it.
      context: Array.from({ length: 10 }, (_, index) => ({ description: `part ${index}`, value: "c".repeat(8_000) })),
    });

    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(suite.server().url);
    await signIn(page, "kim");
    await page.goto(`${suite.server().url}/runs/?thread=${threadId}&run=${threadId}-r1`);
    await page.getByRole("heading", { level: 2, name: `Run ${threadId}-r1` }).waitFor();
    await page.getByText("Messages, state, context and forwarded props").click();

    // The look-alikes are shown whole, as JSON, with the value they would have hidden…
    const state = page.getByLabel("State", { exact: true });
    await expect.poll(() => state.textContent()).toContain('"head": "attacker\'s head"');
    expect(await state.textContent()).toContain("the state the client really sent");
    expect(await page.getByLabel("Forwarded props", { exact: true }).textContent()).toContain('"cut": true');
    expect(await page.getByText("cut: 5 chars").count()).toBe(0);
    // …and the context the server cut says so.
    expect(await page.getByText(/^cut: \d+ chars, sha256 [0-9a-f]{12}…$/).count()).toBeGreaterThan(0);
    await context.close();
  });
});
