import { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { ask, lastReply, openWorkdesk, said, secondTab, signIn } from "./workdesk.ts";

const VIEWPORT = { width: 1400, height: 860 };

describe("regenerating the last answer", () => {
  // A real provider's wire (OpenAI's, served by aimock): the same question gets a different answer the second time.
  const mock = new LLMock({ port: 0 });
  const options = { env: {} as Record<string, string> };
  beforeAll(async () => {
    const policy = { userMessage: /^what is the badge policy\?$/ };
    mock.addFixture({
      match: { ...policy, sequenceIndex: 0 },
      response: { content: "First try: badges are checked at the north door." },
      chunkSize: 8,
      latency: 2,
    });
    mock.addFixture({
      match: { ...policy, sequenceIndex: 1 },
      response: { content: "Second try: every door checks badges after 18:00." },
      chunkSize: 8,
      latency: 2,
    });
    mock.addFixture({ match: { userMessage: /^who approves laptops\?$/ }, response: { content: "Managers approve laptops." }, chunkSize: 8 });
    mock.addFixture({ match: { userMessage: /^thanks$/ }, response: { content: "You're welcome." }, chunkSize: 8 });
    await mock.start();
    Object.assign(options.env, { TETHER_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "mock", OPENAI_BASE_URL: `${mock.url}/v1` });
  });
  afterAll(() => mock.stop());
  const suite = browserSuite(options);

  it("replaces the last answer with a new one, in this tab, in another tab, and after a reload", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await ask(page, "what is the badge policy?");
    await lastReply(page, /^First try/);
    const other = await secondTab(context, suite.server().url);
    await expect.poll(() => said(other), { timeout: 15_000 }).toEqual(await said(page));

    // Only the last answer offers it, beside Copy.
    const regenerate = page.getByRole("button", { name: "Regenerate" });
    expect(await regenerate.count()).toBe(1);
    await regenerate.click();
    await lastReply(page, /^Second try/);
    // The button went with the answer; focus waits where the person types.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Message the assistant");

    const expected = ["what is the badge policy?", "Second try: every door checks badges after 18:00."];
    expect(await said(page)).toEqual(expected);
    await expect.poll(() => said(other), { timeout: 15_000 }).toEqual(expected);
    await page.reload();
    await page.getByRole("heading", { name: "Dashboard", level: 1 }).waitFor();
    await expect.poll(() => said(page), { timeout: 15_000 }).toEqual(expected);
    expect(await page.getByRole("button", { name: "Regenerate" }).count()).toBe(1);
    await context.close();
  });

  it("a tab that fell behind cannot replace an answer the conversation moved past: it says so in words and shows the conversation as it is", async () => {
    const context = await suite.browser().newContext({ viewport: VIEWPORT });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await ask(page, "who approves laptops?");
    await lastReply(page, /Managers approve laptops/);
    const stale = await secondTab(context, suite.server().url, true);
    await expect.poll(() => said(stale), { timeout: 15_000 }).toEqual(await said(page));

    await ask(page, "thanks");
    await lastReply(page, /welcome/);
    expect(await said(stale)).toEqual(["who approves laptops?", "Managers approve laptops."]); // it heard nothing

    await stale.getByRole("button", { name: "Regenerate" }).click();
    const alert = stale.getByRole("alert");
    await expect.poll(() => alert.textContent(), { timeout: 15_000 }).toContain("The conversation moved on in another window");
    expect(await alert.textContent()).not.toMatch(/history_conflict|message [0-9a-f-]{36}/);
    await expect.poll(() => said(stale), { timeout: 15_000 }).toEqual(await said(page));
    expect(await said(page)).toEqual(["who approves laptops?", "Managers approve laptops.", "thanks", "You're welcome."]);
    await context.close();
  });
});
