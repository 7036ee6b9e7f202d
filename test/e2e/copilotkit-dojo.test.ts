import { EventType } from "ag-ui-client-0.0";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWeather } from "../../apps/dojo/agent/weather.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import { launchChromium } from "./browser.ts";
import {
  ask,
  eventsOf,
  installCopilotKitFixture,
  recordRuns,
  removeCopilotKitFixture,
  startCopilotKitRuntime,
  type CopilotKitRuntime,
  type PageRun,
} from "./copilotkit-fixture.ts";

/**
 * The AG-UI dojo's features through CopilotKit's own frontend, as the dojo runs them: CopilotKit's runtime
 * (1.75.0) holds one plain HttpAgent per feature (agent id = feature id, pointed at the demo's
 * /api/agents/<feature>/run?compat=ag-ui-0.0 with a sign-in token as a static header), and each feature's
 * page (test/fixtures/copilotkit/src/dojo) is written as the dojo's is, with CopilotKit's v2 hooks and the
 * dojo's tool names, zod parameters and descriptions. Every feature agent runs on its offline playbook.
 * Besides what each page shows, the SSE CopilotKit's runtime passed on to the page is checked as the
 * dojo's specs check it.
 */
const SCREENSHOTS = "docs/screenshots";

type StreamEvent = ReturnType<typeof eventsOf>[number];

/** Every event of every run the page made, in order, each run's SSE as CopilotKit's runtime answered the page. */
async function streamed(runs: PageRun[]): Promise<StreamEvent[][]> {
  return Promise.all(runs.map(async (run) => eventsOf(await run.response)));
}

const types = (events: StreamEvent[]) => events.map((event) => event.type);
const startOf = (events: StreamEvent[], tool: string) => events.findIndex((event) => event.type === EventType.TOOL_CALL_START && event.toolCallName === tool);
const argsOf = (events: StreamEvent[], toolCallId: unknown) =>
  events.filter((event) => event.type === EventType.TOOL_CALL_ARGS && event.toolCallId === toolCallId);

/** The dojo's stream checks for state: a snapshot before the first delta, more than one delta, the run finished, no error. */
function expectStateStream(events: StreamEvent[]): void {
  const kinds = types(events);
  expect(kinds).toContain(EventType.STATE_SNAPSHOT);
  expect(kinds.indexOf(EventType.STATE_SNAPSHOT)).toBeLessThan(kinds.indexOf(EventType.STATE_DELTA));
  expect(kinds.filter((type) => type === EventType.STATE_DELTA).length).toBeGreaterThan(1);
  expect(kinds.at(-1)).toBe(EventType.RUN_FINISHED);
}

/** PredictState announced before the call it predicts, and that call's arguments streamed in several pieces. */
function expectPredictedCall(events: StreamEvent[], tool: string, prediction: Record<string, string>): void {
  const predict = events.findIndex((event) => event.type === EventType.CUSTOM && event.name === "PredictState");
  expect(events[predict]?.value).toEqual([prediction]);
  const start = startOf(events, tool);
  expect(predict).toBeGreaterThanOrEqual(0);
  expect(predict).toBeLessThan(start);
  expect(argsOf(events, events[start]!.toolCallId).length).toBeGreaterThan(1);
}

const assistantSaid = (page: Page, text: string | RegExp) => page.getByTestId("copilot-assistant-message").filter({ hasText: text });

describe("the AG-UI dojo's features through CopilotKit's runtime and React frontend", () => {
  let work: string;
  let server: DemoServer;
  let runtime: CopilotKitRuntime;
  let browser: Browser;
  const errors: string[] = [];

  beforeAll(async () => {
    work = await installCopilotKitFixture();
    // The playbook streaming as `npm start` streams it (12 ms a chunk), so a page sees state grow while a run writes it.
    server = await startDemoServer({ playbook: { chunkDelayMs: 12 } });
    // The token the dojo's HttpAgents would carry as a static header: the demo's own sign-in.
    const login = await fetch(`${server.url}/api/demo/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: "kim" }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    runtime = await startCopilotKitRuntime(work, { TETHER_URL: server.url, TETHER_TOKEN: token });
    browser = await launchChromium();
  }, 900_000);

  afterAll(async () => {
    runtime?.process.kill();
    await browser?.close();
    await server?.close();
    removeCopilotKitFixture(work);
  }, 300_000);

  /** A feature's page, with every run it makes recorded; ready once CopilotKit's chat input is there. */
  async function openFeature(feature: string): Promise<{ page: Page; runs: PageRun[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const runs = recordRuns(page, feature);
    page.on("pageerror", (error) => errors.push(`${feature}: ${error.message}`));
    await page.goto(`${runtime.url}/feature/${feature}`);
    await page.getByTestId("copilot-chat-textarea").waitFor();
    return { page, runs };
  }

  /** No run of the feature failed: no RUN_ERROR in any stream, and each ended with RUN_FINISHED. */
  async function expectNoRunError(runs: PageRun[]): Promise<StreamEvent[][]> {
    const streams = await streamed(runs);
    for (const events of streams) {
      expect(types(events)).not.toContain(EventType.RUN_ERROR);
      expect(types(events).at(-1)).toBe(EventType.RUN_FINISHED);
    }
    return streams;
  }

  it("agentic_chat: answers Hi, and the page's change_background changes the background before the agent says so", async () => {
    const { page, runs } = await openFeature("agentic_chat");
    await ask(page, "Hi");
    await assistantSaid(page, "Hello! How can I assist you today?").waitFor();

    await ask(page, "Change the background color to blue");
    await assistantSaid(page, "Done: the background is blue now.").waitFor();
    expect(await page.getByTestId("background-container").evaluate((element) => (element as HTMLElement).style.background)).toBe("blue");

    // Three runs: "Hi", the tool call, and CopilotKit's follow-up with the page's result.
    await expect.poll(() => runs.length).toBe(3);
    const streams = await expectNoRunError(runs);
    expect(startOf(streams[1]!, "change_background")).toBeGreaterThanOrEqual(0);
    const [, , followUp] = runtime.forwarded("agentic_chat");
    expect(followUp!.messages.at(-1)).toMatchObject({ role: "tool", content: JSON.stringify({ status: "success", message: "Background changed to blue" }) });
    // The page's declaration and its context reached Tether as the page wrote them.
    expect(followUp!.tools.map((tool) => tool.name)).toEqual(["change_background"]);
    expect(followUp!.context).toContainEqual({ description: "Name of the user", value: "Bob" });
    await page.screenshot({ path: `${SCREENSHOTS}/copilotkit-agentic_chat.png` });
  });

  it("backend_tool_rendering: useRenderTool draws the weather card from the server tool's call and result", async () => {
    const { page, runs } = await openFeature("backend_tool_rendering");
    await page.getByRole("button", { name: "Weather in San Francisco" }).click();
    const card = page.getByTestId("weather-card");
    await card.waitFor();
    const weather = demoWeather("San Francisco");
    expect(await page.getByTestId("weather-city").textContent()).toBe("San Francisco");
    expect(await page.getByTestId("weather-humidity").textContent()).toBe(`Humidity${weather.humidity}%`);
    expect(await page.getByTestId("weather-wind").textContent()).toBe(`Wind${weather.windSpeed} mph`);
    expect(await page.getByTestId("weather-feels-like").textContent()).toBe(`Feels Like${weather.feelsLike}°`);
    await assistantSaid(page, "Here's the weather in San Francisco (demo figures).").waitFor();

    const [events] = await expectNoRunError(runs);
    const start = startOf(events!, "get_weather");
    const call = events![start]!.toolCallId;
    const result = events!.find((event) => event.type === EventType.TOOL_CALL_RESULT);
    expect(result?.toolCallId).toBe(call);
    expect(types(events!).indexOf(EventType.TOOL_CALL_END)).toBeLessThan(events!.indexOf(result!));
    await page.screenshot({ path: `${SCREENSHOTS}/copilotkit-backend_tool_rendering.png` });
  });

  it("human_in_the_loop: the steps are shown, the person unticks one and confirms, and only the kept steps are done", async () => {
    const { page, runs } = await openFeature("human_in_the_loop");
    await ask(page, "Give me a plan to make brownies, there should be only one step with eggs and one step with oven");
    const steps = page.getByTestId("select-steps");
    await steps.waitFor();
    // The steps draw as their arguments stream; the person can choose once the call is complete and waiting.
    await expect
      .poll(() => steps.getByTestId("step-text").allTextContents())
      .toEqual(["Crack eggs into bowl", "Preheat oven to 350F", "Mix and bake for 25 min"]);
    await steps.getByText(/Ready/).waitFor();
    await steps.getByTestId("step-item").filter({ hasText: "eggs" }).click();
    await page.screenshot({ path: `${SCREENSHOTS}/copilotkit-human_in_the_loop.png` });
    await steps.getByRole("button", { name: /Confirm/ }).click();
    await assistantSaid(page, "Done! I carried out the 2 steps you kept:").waitFor();
    // A numbered list in the reply's markdown: only the two kept steps, in order.
    const done = await assistantSaid(page, "Done!").innerText();
    expect(done).toMatch(/Preheat oven to 350F\s+Mix and bake for 25 min/);
    expect(done).not.toMatch(/eggs/);

    await ask(page, "Does the planner include eggs?");
    await assistantSaid(page, "No, the plan does not include eggs.").waitFor();
    await expectNoRunError(runs);
    // The page's answer reached Tether as the tool's result: accepted, with only the ticked steps.
    const answered = runtime.forwarded("human_in_the_loop").find((input) => input.messages.at(-1)?.role === "tool");
    expect(JSON.parse(answered!.messages.at(-1)!.content as string)).toEqual({
      accepted: true,
      steps: [
        { description: "Preheat oven to 350F", status: "enabled" },
        { description: "Mix and bake for 25 min", status: "enabled" },
      ],
    });
  });

  it("agentic_generative_ui: the progress list follows the agent's state until every step is completed", async () => {
    const { page, runs } = await openFeature("agentic_generative_ui");
    await ask(page, "Give me a plan to make brownies");
    const progress = page.getByTestId("task-progress");
    await progress.waitFor();
    // Read while the steps complete (600 ms each): the list is seen part-way, then complete.
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const counted = /(\d+)\/(\d+) Complete/.exec(await progress.innerText())?.[0] ?? "";
          seen.add(counted);
          return counted;
        },
        { interval: 100, timeout: 20_000 },
      )
      .toBe("4/4 Complete");
    expect([...seen].some((counted) => counted !== "4/4 Complete")).toBe(true);
    expect(await progress.getByTestId("task-step-text").allTextContents()).toEqual([
      "Gathering ingredients",
      "Melting chocolate",
      "Mixing batter",
      "Baking brownies",
    ]);
    await assistantSaid(page, "Done! All 4 steps are complete.").waitFor();
    const [events] = await expectNoRunError(runs);
    expectStateStream(events!);
    await page.screenshot({ path: `${SCREENSHOTS}/copilotkit-agentic_generative_ui.png` });
  });

  it("tool_based_generative_ui: the haiku card drawn from generate_haiku's streamed arguments, and no run after it", async () => {
    const { page, runs } = await openFeature("tool_based_generative_ui");
    await ask(page, 'Generate Haiku for "I will always win"');
    const card = page.getByTestId("copilot-chat").getByTestId("haiku-card").last();
    await card.waitFor();
    await expect.poll(() => card.getByTestId("haiku-japanese-line").allTextContents()).toEqual(["勝利の道を", "常に歩み続ける", "勝つ運命よ"]);
    // The handler ran: the page's carousel holds the same haiku.
    await expect
      .poll(() => page.getByTestId("carousel-item-0").getByTestId("haiku-english-line").allTextContents())
      .toEqual(["On the path of victory", "I will always keep walking", "Destined to always win"]);
    // followUp: false, so the result is kept for the next run, and no run follows it.
    await page.waitForTimeout(1_000);
    expect(runs).toHaveLength(1);
    const [events] = await expectNoRunError(runs);
    const start = startOf(events!, "generate_haiku");
    expect(argsOf(events!, events![start]!.toolCallId).length).toBeGreaterThan(3);
    // Declared as the dojo declares it: no description (Tether's allow-list gives the model its own).
    expect(runtime.forwarded("tool_based_generative_ui")[0]!.tools).toEqual([expect.objectContaining({ name: "generate_haiku", description: "" })]);
    await page.screenshot({ path: `${SCREENSHOTS}/copilotkit-tool_based_generative_ui.png` });
  });

  it("shared_state: the recipe streams in from the agent's state, and an ingredient the page adds reaches the agent", async () => {
    const { page, runs } = await openFeature("shared_state");
    await ask(page, 'Please give me a pasta recipe of your choosing, but one of the ingredients should be "Pasta"');
    await assistantSaid(page, 'Done! The recipe "Garlic Tomato Pasta" is updated.').waitFor();
    const names = () => page.locator(".ingredient-name-input").evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    await expect.poll(names).toEqual(["Pasta", "Salt", "Olive Oil", "Garlic", "Tomatoes"]);
    expect(await page.locator(".instructions-container .instruction-item").count()).toBe(5);
    const [recipeRun] = await expectNoRunError(runs);
    expectStateStream(recipeRun!);
    expectPredictedCall(recipeRun!, "generate_recipe", { state_key: "recipe", tool: "generate_recipe", tool_argument: "recipe" });

    // The person's edit, through agent.setState: it reaches Tether as the next run's state, and the agent reads it.
    await page.getByTestId("add-ingredient-button").click();
    const added = page.getByTestId("ingredient-card").last();
    await added.locator(".ingredient-name-input").fill("Potatoes");
    await added.locator(".ingredient-amount-input").fill("12");
    await ask(page, "Give me all the ingredients");
    await assistantSaid(page, "Potatoes: 12").waitFor(); // a list item of the reply's markdown
    const asked = runtime.forwarded("shared_state").at(-1)!;
    expect((asked.state as { recipe: { ingredients: unknown[] } }).recipe.ingredients.at(-1)).toEqual({ icon: "🍴", name: "Potatoes", amount: "12" });
    await expectNoRunError(runs);
    await page.screenshot({ path: `${SCREENSHOTS}/copilotkit-shared_state.png` });
  });

  it("predictive_state_updates: the document grows in the editor as it streams, and Confirm brings the accepted reply", async () => {
    const { page, runs } = await openFeature("predictive_state_updates");
    const editor = page.locator("div.tiptap.ProseMirror");
    await editor.waitFor();
    // Every text the editor shows, as it changes: the document should be seen growing, not only whole.
    await editor.evaluate((element) => {
      const shown: string[] = [];
      (window as unknown as { __shown: string[] }).__shown = shown;
      new MutationObserver(() => shown.push((element as HTMLElement).innerText)).observe(element, { subtree: true, childList: true, characterData: true });
    });
    await ask(page, "Give me a story for a dragon called Atlantis in document");
    const modal = page.getByTestId("confirm-changes-modal").last();
    await modal.waitFor();
    await expect.poll(() => editor.innerText()).toContain("a dragon called Atlantis");
    const shown = await page.evaluate(() => (window as unknown as { __shown: string[] }).__shown);
    const lengths = new Set(shown.filter((text) => text.includes("Atlantis")).map((text) => text.length));
    expect(lengths.size).toBeGreaterThan(1);

    await modal.getByTestId("confirm-button").click();
    await modal.getByTestId("status-display").filter({ hasText: "✓ Accepted" }).waitFor();
    await assistantSaid(page, "Done! The changes are kept.").waitFor();
    expect(await editor.innerText()).toContain("a dragon called Atlantis");

    const [written] = await expectNoRunError(runs);
    expectStateStream(written!);
    expectPredictedCall(written!, "write_document_local", { state_key: "document", tool: "write_document_local", tool_argument: "document" });
    expect(startOf(written!, "confirm_changes")).toBeGreaterThan(startOf(written!, "write_document_local"));
    const answered = runtime.forwarded("predictive_state_updates").find((input) => input.messages.at(-1)?.role === "tool");
    expect(JSON.parse(answered!.messages.at(-1)!.content as string)).toEqual({ accepted: true });
    await page.screenshot({ path: `${SCREENSHOTS}/copilotkit-predictive_state_updates.png` });
  });

  it("no page threw", () => {
    expect(errors).toEqual([]);
  });
});
