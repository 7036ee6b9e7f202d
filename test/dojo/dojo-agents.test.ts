import { HttpAgent, type BaseEvent, type Message, type Tool } from "@ag-ui/client";
import { toAgUiTool, type BrowserToolSpec } from "@tether-agent/tether/protocol";
import { createTetherApp, silentLogger, type TetherUser } from "@tether-agent/tether/server";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { describe, expect, it } from "vitest";
import { changeBackground } from "../../apps/dojo/agent/agentic-chat.ts";
import { generateTaskSteps } from "../../apps/dojo/agent/human-in-the-loop.ts";
import { DOJO_FEATURES, createDojoAgents } from "../../apps/dojo/agent/index.ts";
import { confirmChanges, writeDocument } from "../../apps/dojo/agent/predictive-state-updates.ts";
import { INITIAL_RECIPE } from "../../apps/dojo/agent/shared-state.ts";
import { generateHaiku } from "../../apps/dojo/agent/tool-based-generative-ui.ts";

/**
 * The dojo's feature agents on their offline playbooks, driven as the dojo's pages drive them: over the
 * unmodified `@ag-ui/client` HttpAgent, its own reducer holding messages and state, each page's tools
 * declared with each run.
 */
const tether = await createTetherApp<TetherUser>({
  agents: createDojoAgents({ playbook: { chunkDelayMs: 0 }, stepMs: 0 }),
  authenticate: (request) => (request.headers.get("x-user") ? { id: request.headers.get("x-user")! } : undefined),
  store: createMemoryRunStore(),
  logger: silentLogger,
});

let threads = 0;
function page(feature: string, tools: BrowserToolSpec[] = []) {
  const agent = new HttpAgent({
    url: `http://tether.test/api/agents/${feature}/run`,
    headers: { "x-user": "dojo-visitor" },
    threadId: `dojo_${feature}_${++threads}`,
    fetch: (url: string, init?: RequestInit) => Promise.resolve(tether.app.request(url, init)),
  });
  const declared: Tool[] = tools.map((tool) => toAgUiTool(tool));
  const run = async (text?: string) => {
    if (text) agent.addMessage({ id: `u${agent.messages.length}_${threads}`, role: "user", content: text });
    const events: BaseEvent[] = [];
    await agent.runAgent({ tools: declared }, { onEvent: ({ event }) => void events.push(event) });
    return events;
  };
  /** The page's answer to its browser tool's call, then the run that follows it. */
  const answer = (toolCallId: string, result: unknown) => {
    agent.addMessage({ id: `t${agent.messages.length}_${threads}`, role: "tool", toolCallId, content: JSON.stringify(result) });
    return run();
  };
  return { agent, run, answer };
}

const types = (events: BaseEvent[]): string[] => events.map((event) => event.type);
const lastWords = (messages: Message[]) => messages.filter((message) => message.role === "assistant" && message.content).at(-1)?.content;
const callOf = (events: BaseEvent[], name: string) =>
  events.find((event) => event.type === "TOOL_CALL_START" && (event as { toolCallName?: string }).toolCallName === name) as
    (BaseEvent & { toolCallId: string }) | undefined;

describe("the dojo's feature agents over a plain HttpAgent", () => {
  it("serves one agent per dojo feature, under the dojo's ids, allow-listing the tools of the feature's page", async () => {
    const allowed: Record<string, string[]> = {};
    for (const feature of DOJO_FEATURES) {
      const response = await tether.app.request(`/api/agents/${feature}/capabilities`, { headers: { "x-user": "dojo-visitor" } });
      expect(response.status).toBe(200);
      const capabilities = (await response.json()) as { custom: { browserTools: Array<{ name: string }> } };
      allowed[feature] = capabilities.custom.browserTools.map((tool) => tool.name);
    }
    expect(allowed).toEqual({
      agentic_chat: ["change_background"],
      backend_tool_rendering: [],
      human_in_the_loop: ["generate_task_steps"],
      agentic_generative_ui: [],
      tool_based_generative_ui: ["generate_haiku"],
      shared_state: [],
      predictive_state_updates: ["confirm_changes", "write_document"],
    });
  });

  it("agentic_chat: remembers the conversation, and changes the background only once the page says it did", async () => {
    const { agent, run, answer } = page("agentic_chat", [changeBackground]);
    await run("My name is Alex");
    await run("What is the capital of France?");
    await run("What is my name?");
    expect(lastWords(agent.messages)).toBe("Your name is Alex!");
    const asked = await run("Change the background color to blue");
    const call = callOf(asked, "change_background")!;
    expect(lastWords(agent.messages)).toBe("Your name is Alex!"); // nothing claimed before the page answers
    await answer(call.toolCallId, { status: "success", message: "Background changed to blue" });
    expect(lastWords(agent.messages)).toBe("Done: the background is blue now.");
  });

  it("backend_tool_rendering: the server tool's call and its result stream for the page to draw", async () => {
    const { agent, run } = page("backend_tool_rendering");
    const events = await run("What's the weather like in San Francisco?");
    const call = callOf(events, "get_weather")!;
    const result = events.find((event) => event.type === "TOOL_CALL_RESULT") as BaseEvent & { toolCallId: string; content: string };
    expect(result.toolCallId).toBe(call.toolCallId);
    expect(JSON.parse(result.content)).toMatchObject({
      city: "San Francisco",
      source: "demo data",
      humidity: expect.any(Number),
      windSpeed: expect.any(Number),
    });
    expect(lastWords(agent.messages)).toBe("Here's the weather in San Francisco (demo figures).");
  });

  it("human_in_the_loop: waits for the person's choice of steps, then does only those", async () => {
    const { agent, run, answer } = page("human_in_the_loop", [generateTaskSteps]);
    const asked = await run("Give me a plan to make brownies, there should be only one step with eggs and one step with oven");
    const call = callOf(asked, "generate_task_steps")!;
    expect(types(asked).at(-1)).toBe("RUN_FINISHED");
    await answer(call.toolCallId, { accepted: true, steps: [{ description: "Preheat oven to 350F", status: "enabled" }] });
    expect(lastWords(agent.messages)).toBe("Done! I carried out the 1 step you kept:\n1. Preheat oven to 350F");
    await run("Does the planner include eggs?");
    expect(lastWords(agent.messages)).toBe("No, the plan does not include eggs.");
  });

  it("agentic_generative_ui: the tool's progress streams as state, each step completed by its own delta before the result", async () => {
    const { agent, run } = page("agentic_generative_ui");
    const events = await run("Give me a plan to make brownies");
    const stateEvents = types(events).filter((type) => type.startsWith("STATE_") || type === "TOOL_CALL_RESULT");
    expect(stateEvents).toEqual(["STATE_SNAPSHOT", "STATE_DELTA", "STATE_DELTA", "STATE_DELTA", "STATE_DELTA", "STATE_DELTA", "TOOL_CALL_RESULT"]);
    const completions = events.filter((event) => event.type === "STATE_DELTA").slice(1) as Array<BaseEvent & { delta: unknown }>;
    expect(completions.map((event) => event.delta)).toEqual(
      [0, 1, 2, 3].map((index) => [{ op: "replace", path: `/steps/${index}/status`, value: "completed" }]),
    );
    expect(agent.state).toEqual({
      steps: ["Gathering ingredients", "Melting chocolate", "Mixing batter", "Baking brownies"].map((description) => ({ description, status: "completed" })),
    });
  });

  it("tool_based_generative_ui: the haiku's arguments stream in pieces to the page's render-only tool", async () => {
    const { run } = page("tool_based_generative_ui", [generateHaiku]);
    const events = await run('Generate Haiku for "I will always win"');
    expect(callOf(events, "generate_haiku")).toBeDefined();
    expect(types(events).filter((type) => type === "TOOL_CALL_ARGS").length).toBeGreaterThan(3);
    expect(types(events).at(-1)).toBe("RUN_FINISHED");
  });

  it("shared_state: the recipe streams into state as the model writes it, and the page's edit reaches the agent", async () => {
    const { agent, run } = page("shared_state");
    const events = await run('Please give me a pasta recipe of your choosing, but one of the ingredients should be "Pasta"');
    const kinds = types(events);
    expect(kinds.indexOf("STATE_SNAPSHOT")).toBeLessThan(kinds.indexOf("STATE_DELTA"));
    expect(kinds.filter((type) => type === "STATE_DELTA").length).toBeGreaterThan(1);
    // The prediction first, announced as CopilotKit's frontend expects, before the call it follows.
    expect(kinds.indexOf("CUSTOM")).toBeLessThan(kinds.indexOf("TOOL_CALL_START"));
    const recipe = (agent.state as { recipe: typeof INITIAL_RECIPE }).recipe;
    expect(recipe.ingredients.map((ingredient) => ingredient.name)).toEqual(["Pasta", "Salt", "Olive Oil", "Garlic", "Tomatoes"]);
    const stored = (await (await tether.app.request(`/api/threads/${agent.threadId}`, { headers: { "x-user": "dojo-visitor" } })).json()) as { state: unknown };
    expect(stored.state).toEqual(agent.state);

    agent.setState({ recipe: { ...recipe, ingredients: [...recipe.ingredients, { icon: "🥔", name: "Potatoes", amount: "12" }] } });
    await run("Give me all the ingredients");
    expect(lastWords(agent.messages)).toContain("- Potatoes: 12");
  });

  it("predictive_state_updates: the document grows in state as it streams, then waits for the person to confirm", async () => {
    const { agent, run, answer } = page("predictive_state_updates", [confirmChanges, writeDocument]);
    const events = await run("Give me a story for a dragon called Atlantis in document");
    const predict = events.find((event) => event.type === "CUSTOM") as BaseEvent & { name: string; value: unknown };
    expect(predict).toMatchObject({ name: "PredictState", value: [{ state_key: "document", tool: "write_document_local", tool_argument: "document" }] });
    const documents = events.filter((event) => event.type === "STATE_DELTA").length;
    expect(documents).toBeGreaterThan(1);
    expect((agent.state as { document: string }).document).toContain("dragon called Atlantis");
    const confirm = callOf(events, "confirm_changes")!;
    await answer(confirm.toolCallId, { accepted: true });
    expect(lastWords(agent.messages)).toBe("Done! The changes are kept.");

    const renamed = await run("Change dragon name to Lola");
    expect((agent.state as { document: string }).document).toContain("dragon called Lola");
    expect(callOf(renamed, "confirm_changes")).toBeDefined();
  });
});
