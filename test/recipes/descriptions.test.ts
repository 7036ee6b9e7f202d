import type { Tool } from "@ag-ui/core";
import { toAgUiTool, type BrowserToolSpec } from "@tether-agent/tether/protocol";
import { silentLogger } from "@tether-agent/tether/server";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offerRecipes, startStepTimer } from "../../apps/recipes/agent/index.ts";
import { DESKTOP_OFFER, MOBILE_OFFER, MOBILE_TIMER, SWAPS } from "../../apps/recipes/web/src/tool-sets.ts";
import { createDemo, type Demo } from "../../apps/serve.ts";

/**
 * A frontend words its browser tools (descriptions, titles, examples and
 * comments, at the top and at any depth of the schema); the server owns their
 * shape. Reworded tools are accepted; a changed shape is refused before
 * anything runs, naming where it differs.
 */

let demo: Demo;
beforeAll(async () => {
  demo = await createDemo({ dataDir: ":memory:", secret: "test-secret", logger: silentLogger, playbook: { chunkDelayMs: 0 }, env: {} });
});
afterAll(async () => {
  await demo.close();
});

let runs = 0;
function post(tools: Tool[], text = "Something quick with leftover rice?") {
  const id = `descriptions-${++runs}`;
  return demo.app.request("/api/agents/recipes/run", {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${demo.identity.issueToken("sam")}` },
    body: JSON.stringify({
      threadId: id,
      runId: `${id}-r1`,
      messages: [{ id: `${id}-u1`, role: "user", content: text }],
      tools,
      context: [],
      state: {},
      forwardedProps: {},
    }),
  });
}

/** A copy of a tool whose schema was changed at `path` (property names and `items`, as in tool-sets.ts). */
function changed(spec: BrowserToolSpec, path: string, change: (schema: Record<string, unknown>) => void, description = spec.description): Tool {
  const parameters = structuredClone(spec.parameters) as Record<string, unknown>;
  let schema = parameters;
  for (const name of path.split(".").filter(Boolean)) {
    schema = (name === "items" ? schema.items : (schema.properties as Record<string, unknown>)[name]) as Record<string, unknown>;
  }
  change(schema);
  return { name: spec.name, description, parameters };
}

const cardsOffered = async (response: Response) => {
  const frames = parseSseFrames(await response.text()).map((frame) => frame.data);
  expect(frames.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
  const start = frames.find((event) => event.type === "TOOL_CALL_START" && event.toolCallName === "offer_recipes");
  const args = frames
    .filter((event) => event.type === "TOOL_CALL_ARGS" && event.toolCallId === start.toolCallId)
    .map((event) => event.delta)
    .join("");
  return (JSON.parse(args) as { recipes: unknown[] }).recipes;
};

describe("a frontend's wording of the Recipes tools", () => {
  it.each([
    ["desktop", [DESKTOP_OFFER]],
    ["mobile", [MOBILE_OFFER, MOBILE_TIMER]],
    ["vegetarian", [DESKTOP_OFFER, SWAPS]],
  ])("is accepted as the %s page words it (top-level and nested descriptions)", async (_name, specs) => {
    const response = await post(specs.map((spec) => toAgUiTool(spec)));
    expect(response.status).toBe(200);
    await response.text();
  });

  it("accepts a changed description of a top-level property and of a nested one, and titles, examples and comments at any depth", async () => {
    const reworded = changed(offerRecipes, "recipes", (schema) => {
      schema.description = "The cards, best first.";
      schema.title = "Cards";
      const item = schema.items as { properties: Record<string, Record<string, unknown>> };
      item.properties.reason!.description = "One short sentence.";
      item.properties.title!.examples = ["Egg fried rice"];
      item.properties.id!.$comment = "from searchRecipes";
    });
    const response = await post([reworded]);
    expect(response.status).toBe(200);
    await response.text();
  });

  it("follows the description the frontend sent, not the allow-list's: two cards when it says exactly two", async () => {
    const two = changed(offerRecipes, "", () => {}, "Show recipe cards. Offer exactly two recipes per call.");
    expect(await cardsOffered(await post([two]))).toHaveLength(2);
    expect(await cardsOffered(await post([toAgUiTool(MOBILE_OFFER)]))).toHaveLength(1);
    expect(await cardsOffered(await post([toAgUiTool(DESKTOP_OFFER)]))).toHaveLength(3);
  });

  it.each([
    ["a nested property's type", offerRecipes, "recipes.items.reason", { type: "number" }, "properties.recipes.items.properties.reason.type"],
    ["a top-level property's type", startStepTimer, "seconds", { type: "string" }, "properties.seconds.type"],
    ["a nested limit", offerRecipes, "recipes.items.title", { maxLength: 5000 }, "properties.recipes.items.properties.title.maxLength"],
    ["an array's length", offerRecipes, "recipes", { maxItems: 50 }, "properties.recipes.maxItems"],
    ["what is required", offerRecipes, "recipes.items", { required: ["id", "title"] }, "properties.recipes.items.required"],
  ] as const)("refuses %s changed: 400 tool_schema_mismatch naming the path", async (_what, spec, path, change, where) => {
    // Reworded as well, so the refusal is for the shape alone.
    const tool = changed(spec, path, (schema) => Object.assign(schema, { description: "Reworded." }, change));
    const response = await post([tool]);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("tool_schema_mismatch");
    expect(error.message).toContain(spec.name);
    expect(error.message).toContain(where);
    // The wording is not the complaint.
    expect(error.message).not.toMatch(/description/);
  });
});
