import { RECIPES, searchRecipes } from "../../apps/recipes/agent/index.ts";
import { readIntent } from "../../apps/recipes/agent/intents.ts";
import { toAgUiTool } from "@tether-agent/tether/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { navigateToScreen } from "../../apps/workdesk/agent/index.ts";
import { agentFailures } from "../helpers/agent-failures.ts";
import { startDemoServer, type DemoServer } from "../helpers/demo-server.ts";
import {
  GUEST_DESKTOP,
  RECIPES_CLIENTS,
  SAM_DESKTOP,
  SAM_MOBILE,
  VERA_DESKTOP,
  browserCalls,
  recipesAgent,
  runRecipes,
  toolsOutside,
  type RecipesClient,
  type RecipesRun,
} from "./recipes-runs.ts";

/**
 * One agent, four frontends: each hands the Recipes agent its own tools, with
 * its own descriptions, and gets exactly the behaviour those tools allow.
 * Every run goes over HTTP to a listening demo server, through the
 * unmodified AG-UI HttpAgent (its parse, enforce and verify pipeline), with
 * the offline playbook model.
 */

let server: DemoServer;
beforeAll(async () => {
  server = await startDemoServer();
});
afterAll(async () => {
  await server.close();
});

const LEFTOVER_RICE = "Something quick with leftover rice?";
let threads = 0;

/** One user turn in a new thread from this frontend; checks what every run must satisfy. */
async function ask(client: RecipesClient, text: string): Promise<RecipesRun> {
  const agent = recipesAgent(server.url, server.token(client.user), `tool-sets-${++threads}`);
  agent.addMessage({ id: `tool-sets-${threads}-u1`, role: "user", content: text });
  const run = await runRecipes(agent, client.tools);
  // The stream passed the reference client's verification, and the run ended as a run should.
  expect(run.failed, `${client.name}: "${text}"`).toBeUndefined();
  expect(run.runError).toBeUndefined();
  expect(run.finished?.outcome?.type).toBe("success");
  // Only the tools this request declared, and the agent's own server tools.
  expect(toolsOutside(run, client.tools), `${client.name}: "${text}"`).toEqual([]);
  // Every browser call is left to the browser, and the run says so.
  expect(run.pendingToolCallIds).toEqual(browserCalls(run).map((call) => call.toolCallId));
  return run;
}

const offered = (run: RecipesRun) => run.calls.filter((call) => call.toolName === "offer_recipes");

describe("the Recipes agent with each frontend's tool set", () => {
  it("declares the tools each frontend hands over", () => {
    expect(RECIPES_CLIENTS.map((client) => [client.name, client.tools.map((tool) => tool.name)])).toEqual([
      ["guest desktop", ["offer_recipes"]],
      ["sam desktop", ["offer_recipes", "save_to_cookbook", "order_ingredients"]],
      ["vera desktop", ["offer_recipes", "save_to_cookbook", "order_ingredients", "suggest_ingredient_swaps"]],
      ["sam mobile", ["offer_recipes", "save_to_cookbook", "order_ingredients", "start_step_timer"]],
    ]);
  });

  describe.each(RECIPES_CLIENTS)(`"${LEFTOVER_RICE}" on $name`, (client) => {
    it(client.audience.mobile ? "searches, then offers exactly one recipe card" : "searches, then offers three recipe cards in one call", async () => {
      const run = await ask(client, LEFTOVER_RICE);
      expect(run.calls.map((call) => call.toolName)).toEqual(["searchRecipes", "offer_recipes"]);
      const [offer] = offered(run);
      const cards = (offer!.args as { recipes: Array<{ id: string; title: string }> }).recipes;
      // The data has at least three quick leftover-rice recipes, so "at most three" is three here.
      const matches = searchRecipes(RECIPES, readIntent(LEFTOVER_RICE) as { query: string; maxMinutes: number }).total;
      expect(matches).toBeGreaterThanOrEqual(3);
      expect(cards).toHaveLength(client.audience.mobile ? 1 : 3);
      expect(cards[0]).toMatchObject({ id: "r-204", title: "Egg fried rice" });
    });
  });

  it("shows vera, who is vegetarian, swap chips for eggs, and tells everyone else in words", async () => {
    const question = "What can I use instead of eggs?";
    const vera = await ask(VERA_DESKTOP, question);
    expect(vera.calls).toEqual([
      {
        toolCallId: expect.any(String),
        toolName: "suggest_ingredient_swaps",
        args: { swaps: [{ ingredient: "eggs", swap: "silken tofu", note: "no eggs? tofu works too" }] },
      },
    ]);
    for (const client of [SAM_DESKTOP, SAM_MOBILE, GUEST_DESKTOP]) {
      const run = await ask(client, question);
      expect(run.calls, client.name).toEqual([]);
      expect(run.text, client.name).toContain("Instead of eggs, try silken tofu.");
    }
  });

  it("tells a guest who asks to save a recipe to sign in, and calls nothing", async () => {
    const run = await ask(GUEST_DESKTOP, "save egg fried rice");
    expect(run.calls).toEqual([]);
    expect(run.text).toMatch(/sign in/i);
  });

  it("saves for a signed-in user", async () => {
    const run = await ask(SAM_DESKTOP, "save egg fried rice");
    expect(browserCalls(run)).toEqual([{ toolCallId: expect.any(String), toolName: "save_to_cookbook", args: { recipeId: "r-204" } }]);
  });

  it("starts a five-minute timer on the phone", async () => {
    const run = await ask(SAM_MOBILE, "set a timer for 5 minutes");
    expect(run.calls).toEqual([{ toolCallId: expect.any(String), toolName: "start_step_timer", args: { seconds: 300, label: "5-minute timer" } }]);
  });

  it.each([GUEST_DESKTOP, SAM_DESKTOP, VERA_DESKTOP])("says it cannot start a timer on $name, and calls nothing", async (client) => {
    const run = await ask(client, "set a timer for 5 minutes");
    expect(run.calls).toEqual([]);
    expect(run.text).toMatch(/can.t start timers from this page/);
  });
});

describe("who may use which agent", () => {
  const failures = agentFailures();
  const post = (agentId: string, user: string, tools: unknown[]) =>
    fetch(`${server.url}/api/agents/${agentId}/run`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${server.token(user)}` },
      body: JSON.stringify({
        threadId: `who-${agentId}-${user}`,
        runId: `who-${agentId}-${user}-r1`,
        messages: [{ id: "u1", role: "user", content: "hello" }],
        tools,
        context: [],
        state: {},
        forwardedProps: {},
      }),
    });

  it("refuses a Workdesk user (kim) on the Recipes agent with 403 forbidden", async () => {
    const response = await post("recipes", "kim", GUEST_DESKTOP.tools);
    expect(response.status).toBe(403);
    expect((await response.json()).error).toMatchObject({ code: "forbidden", message: expect.stringContaining("recipes") });
  });

  it("refuses a Recipes user (sam) on the Workdesk agent with 403 forbidden", async () => {
    const response = await post("workdesk", "sam", [toAgUiTool(navigateToScreen)]);
    expect(response.status).toBe(403);
    expect((await response.json()).error).toMatchObject({ code: "forbidden", message: expect.stringContaining("workdesk") });
  });

  it("refuses them through the unmodified HttpAgent too, before any event", async () => {
    const agent = recipesAgent(server.url, server.token("kim"), "who-http-agent");
    agent.addMessage({ id: "u1", role: "user", content: "hello" });
    const run = await runRecipes(agent, GUEST_DESKTOP.tools);
    expect(run.failed?.message).toMatch(/403/);
    expect(failures.take()).toEqual([run.failed]); // what HttpAgent logs for a failed run
    expect(run.events).toEqual([]);
  });
});
