import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import { toAgUiTool, type ToolOutcome } from "@tether-agent/tether/protocol";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, silentLogger } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { recipeToolsFor } from "../web/src/tool-sets.ts";
import { RECIPES_USERS, createRecipesAgent } from "./index.ts";

/** The tools each frontend hands over, as the Recipes page builds them. */
const SAM_MOBILE = recipeToolsFor({ signedIn: true, vegetarian: false, mobile: true }).map((spec) => toAgUiTool(spec));
const SAM_DESKTOP = recipeToolsFor({ signedIn: true, vegetarian: false, mobile: false }).map((spec) => toAgUiTool(spec));
const GUEST_DESKTOP = recipeToolsFor({ signedIn: false, vegetarian: false, mobile: false }).map((spec) => toAgUiTool(spec));
type Tools = typeof SAM_MOBILE;

const SHOW_R204 = "show me how to make r-204";

/** One run as the client saw it: its events, the calls in it, what the assistant said, the surface it drew. */
interface Run {
  events: Array<BaseEvent & Record<string, unknown>>;
  calls: Array<{ toolCallId: string; toolName: string; args: unknown }>;
  text: string;
  /** The last state of the run's surface: its operations, or the status it ended in. */
  surface?: { a2ui_operations?: unknown[]; status?: string };
  pendingToolCallIds: string[];
}

/**
 * A Recipes thread driven as a stateless client drives it: every request
 * carries the whole history (the agent keeps none), taken after each run
 * from what the run kept, and this request's tools.
 */
async function recipesThread(userId: "sam" | "guest", threadId: string) {
  const store = createMemoryRunStore();
  const tether = await createTetherApp({
    agents: [createRecipesAgent({ playbook: { chunkDelayMs: 0 } })],
    authenticate: () => RECIPES_USERS.find((user) => user.id === userId),
    store,
    logger: silentLogger,
  });
  let history: Message[] = [];
  let runs = 0;

  async function run(tools: Tools, more: { messages?: Message[]; forwardedProps?: Record<string, unknown> } = {}): Promise<Run> {
    const response = await tether.app.request("/api/agents/recipes/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        threadId,
        runId: `${threadId}-r${++runs}`,
        tools,
        context: [],
        state: {},
        messages: [...history, ...(more.messages ?? [])],
        forwardedProps: more.forwardedProps ?? {},
      }),
    });
    expect(response.status).toBe(200);
    const events = parseSseFrames(await response.text()).map((frame) => frame.data as BaseEvent & Record<string, unknown>);
    history = await store.getMessages(threadId);
    return readRun(events);
  }

  return {
    ask: (text: string, tools: Tools, forwardedProps?: Record<string, unknown>) =>
      run(tools, { messages: [{ id: `${threadId}-u${runs + 1}`, role: "user", content: text }], ...(forwardedProps ? { forwardedProps } : {}) }),
    /** A click on the surface, sent as the Recipes page (and CopilotKit) sends it. */
    click: (tools: Tools, action: { name: string; sourceComponentId: string; context: Record<string, unknown> }) =>
      run(tools, {
        forwardedProps: {
          a2uiAction: { userAction: { surfaceId: "recipe-r-204", timestamp: `click-${runs + 1}`, ...action } },
          tether: { trigger: { kind: "ui-action" } },
        },
      }),
    /** The browser's outcome for a follow-up call, as the next run's tool message. */
    report: (tools: Tools, toolCallId: string, outcome: ToolOutcome) =>
      run(tools, {
        messages: [{ id: `${toolCallId}-outcome`, role: "tool", toolCallId, content: JSON.stringify(outcome) }],
        forwardedProps: { tether: { trigger: { kind: "tool-result", toolCallIds: [toolCallId] } } },
      }),
  };
}

function readRun(events: Run["events"]): Run {
  const calls: Run["calls"] = [];
  const args = new Map<string, string>();
  let text = "";
  let surface: Run["surface"];
  for (const event of events) {
    if (event.type === EventType.TOOL_CALL_START) {
      calls.push({ toolCallId: event.toolCallId as string, toolName: event.toolCallName as string, args: undefined });
    } else if (event.type === EventType.TOOL_CALL_ARGS) {
      args.set(event.toolCallId as string, (args.get(event.toolCallId as string) ?? "") + (event.delta as string));
    } else if (event.type === EventType.TOOL_CALL_END) {
      calls.find((call) => call.toolCallId === event.toolCallId)!.args = JSON.parse(args.get(event.toolCallId as string) ?? "{}");
    } else if (event.type === EventType.TEXT_MESSAGE_CONTENT) {
      text += event.delta as string;
    } else if (event.type === EventType.ACTIVITY_SNAPSHOT) {
      surface = event.content as Run["surface"];
    }
  }
  const finished = events.at(-1) as { type: string; outcome?: { type: string; pendingToolCallIds?: string[] } };
  expect(finished).toMatchObject({ type: EventType.RUN_FINISHED, outcome: { type: "success" } });
  return { events, calls, text, ...(surface ? { surface } : {}), pendingToolCallIds: finished.outcome?.pendingToolCallIds ?? [] };
}

/** The action names of the buttons a surface's operations draw, in order. */
function buttonActions(surface: Run["surface"]): string[] {
  const names: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (typeof value !== "object" || value === null) return;
    const event = (value as { event?: { name?: unknown } }).event;
    if (typeof event?.name === "string") names.push(event.name);
    Object.values(value).forEach(walk);
  };
  walk(surface?.a2ui_operations);
  return names;
}

const timersOf = (surface: Run["surface"]) => buttonActions(surface).filter((name) => name === "start_timer");

describe("a recipe as a generated surface, on the offline playbook", () => {
  it("shows a phone the recipe with a Start timer button per step, after reading it with getRecipe", async () => {
    const thread = await recipesThread("sam", "mobile");
    const shown = await thread.ask(SHOW_R204, SAM_MOBILE);
    expect(shown.calls.map((call) => call.toolName)).toEqual(["getRecipe", "render_a2ui"]);
    expect(shown.calls[0]!.args).toEqual({ recipeId: "r-204" });
    expect(JSON.stringify(shown.surface?.a2ui_operations)).toContain("400 g cooked rice (leftover, cold)");
    expect(timersOf(shown.surface)).toHaveLength(6);
    expect(shown.text).toBe(
      "Here is Egg fried rice: 15 minutes, serves 2, in 6 steps. From the card you can start a step's timer or save it to your cookbook.",
    );
    expect(shown.pendingToolCallIds).toEqual([]);
  });

  it("shows a signed-in desktop the Save button and no timers", async () => {
    const thread = await recipesThread("sam", "desktop");
    const shown = await thread.ask("How do I make egg fried rice?", SAM_DESKTOP);
    expect(shown.calls.map((call) => call.toolName)).toEqual(["getRecipe", "render_a2ui"]);
    expect(buttonActions(shown.surface)).toEqual(["save_recipe"]);
    expect(shown.text).toContain("From the card you can save it to your cookbook.");
  });

  it("shows a guest on a desktop the recipe without buttons", async () => {
    const thread = await recipesThread("guest", "guest");
    const shown = await thread.ask("recipe card for egg fried rice", GUEST_DESKTOP);
    expect(JSON.stringify(shown.surface?.a2ui_operations)).toContain("Beat the eggs in a bowl.");
    expect(buttonActions(shown.surface)).toEqual([]);
    expect(shown.text).toBe("Here is Egg fried rice: 15 minutes, serves 2, in 6 steps.");
  });

  it("offers no surface to a client that renders no catalog Tether can use, and shows the recipe the page's own way", async () => {
    const thread = await recipesThread("sam", "other-catalog");
    const shown = await thread.ask(SHOW_R204, SAM_MOBILE, { a2uiClientCapabilities: { supportedCatalogIds: ["https://example.com/catalogs/other.json"] } });
    // render_a2ui was never offered, so nothing was tried and failed on this page.
    expect(shown.surface).toBeUndefined();
    expect(shown.text).toMatch(/^Egg fried rice takes 15 minutes and serves 2, in 6 steps\. You'll need /);
    expect(shown.calls.map((call) => call.toolName)).toEqual(["getRecipe", "offer_recipes"]);
  });

  it("starts a step's timer when its button is clicked, and says it runs only once the browser reports it started", async () => {
    const thread = await recipesThread("sam", "timer");
    await thread.ask(SHOW_R204, SAM_MOBILE);
    const clicked = await thread.click(SAM_MOBILE, {
      name: "start_timer",
      sourceComponentId: "step-3-timer",
      context: { recipeId: "r-204", step: 3, seconds: 180 },
    });
    expect(clicked.calls).toEqual([
      {
        toolCallId: expect.any(String),
        toolName: "start_step_timer",
        args: { seconds: 180, label: "Step 3: Add the rice and stir-fry for 3 minutes, breaking up any clumps." },
      },
    ]);
    // A follow-up: the run stops for the browser, and nothing is claimed yet.
    expect(clicked.pendingToolCallIds).toEqual([clicked.calls[0]!.toolCallId]);
    expect(clicked.text).toBe("Starting the 3-minute timer for step 3…");

    const started = await thread.report(SAM_MOBILE, clicked.calls[0]!.toolCallId, { status: "succeeded" });
    expect(started.calls).toEqual([]);
    expect(started.text).toBe("Your 3-minute timer (Step 3: Add the rice and stir-fry for 3 minutes, breaking up any clumps.) is running.");
  });

  it("says so when the browser could not start the clicked timer", async () => {
    const thread = await recipesThread("sam", "timer-refused");
    await thread.ask(SHOW_R204, SAM_MOBILE);
    const clicked = await thread.click(SAM_MOBILE, {
      name: "start_timer",
      sourceComponentId: "step-1-timer",
      context: { recipeId: "r-204", step: 1, seconds: 60 },
    });
    const refused = await thread.report(SAM_MOBILE, clicked.calls[0]!.toolCallId, {
      status: "failed",
      reason: "timer_limit",
      message: "Three timers are already running.",
    });
    expect(refused.text).toBe("The 1-minute timer (Step 1: Beat the eggs in a bowl.) didn't start: Three timers are already running.");
  });

  it("saves the recipe when Save to cookbook is clicked, and says saved only once the browser reports it", async () => {
    const thread = await recipesThread("sam", "save");
    await thread.ask(SHOW_R204, SAM_DESKTOP);
    const clicked = await thread.click(SAM_DESKTOP, { name: "save_recipe", sourceComponentId: "save", context: { recipeId: "r-204" } });
    expect(clicked.calls.map(({ toolName, args }) => ({ toolName, args }))).toEqual([{ toolName: "save_to_cookbook", args: { recipeId: "r-204" } }]);
    expect(clicked.pendingToolCallIds).toEqual([clicked.calls[0]!.toolCallId]);
    expect(clicked.text).toBe("Saving Egg fried rice to your cookbook…");

    const saved = await thread.report(SAM_DESKTOP, clicked.calls[0]!.toolCallId, { status: "succeeded" });
    expect(saved.text).toBe("Saved Egg fried rice to your cookbook.");
  });

  it("calls nothing for a timer button clicked on a client that has no step timer, and says this device can't", async () => {
    // Shown on the phone, clicked in the same thread on the desktop, which hands over no start_step_timer.
    const thread = await recipesThread("sam", "timer-on-desktop");
    await thread.ask(SHOW_R204, SAM_MOBILE);
    const clicked = await thread.click(SAM_DESKTOP, {
      name: "start_timer",
      sourceComponentId: "step-2-timer",
      context: { recipeId: "r-204", step: 2, seconds: 30 },
    });
    expect(clicked.calls).toEqual([]);
    expect(clicked.pendingToolCallIds).toEqual([]);
    expect(clicked.text).toBe("This device can't run timers, so I didn't start the 30-second timer for step 2. Your kitchen timer will have to do.");
  });
});
