import type { Tool } from "@ag-ui/core";
import { LLMock } from "@copilotkit/aimock";
import { createMemoryRunStore } from "@tether-agent/tether/store";
import { createTetherApp, silentLogger } from "@tether-agent/tether/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECIPES_USERS, createRecipesAgent, offerRecipes } from "../../apps/recipes/agent/index.ts";
import { listen, type Listening } from "@tether-agent/tether/node";
import { RECIPES_CLIENTS, recipesAgent, runRecipes } from "../recipes/recipes-runs.ts";
import { PROVIDER_WIRES, type ProviderWire } from "./provider-wires.ts";
import { startUpstreamTap, type UpstreamTap } from "./upstream-tap.ts";

/**
 * The instruction channel of the Recipes story: each frontend words its
 * tools (desktop "at most three", mobile "exactly one", nested descriptions
 * of the card's fields), and that wording must reach the model verbatim, on
 * every provider's wire. Read from the request bodies the provider SDKs
 * really wrote (the tap in front of aimock), not from Tether's own view.
 */

const ASK = "Something quick with leftover rice?";
const ANSWER = "Egg fried rice is a good start.";

const mock = new LLMock({ port: 0 });
let tap: UpstreamTap;
beforeAll(async () => {
  for (const wire of PROVIDER_WIRES) mock.addFixture({ match: { model: wire.modelId, userMessage: ASK }, response: { content: ANSWER } });
  await mock.start();
  tap = await startUpstreamTap(mock.url);
});
afterAll(async () => {
  await tap.close();
  await mock.stop();
});

/** A tool as the provider's wire declares it to the model: its name, description and parameter schema. */
interface WireTool {
  name: string;
  description?: string;
  schema: unknown;
}

/** The tools in one provider request body, in each wire's own format. */
function wireTools(wire: ProviderWire, body: string): WireTool[] {
  const request = JSON.parse(body);
  switch (wire.name) {
    case "anthropic":
      return (request.tools ?? []).map((tool: { name: string; description?: string; input_schema: unknown }) => ({
        name: tool.name,
        description: tool.description,
        schema: tool.input_schema,
      }));
    case "google":
      return (request.tools ?? [])
        .flatMap((group: { functionDeclarations?: unknown[] }) => group.functionDeclarations ?? [])
        .map((tool: { name: string; description?: string; parameters: unknown }) => ({
          name: tool.name,
          description: tool.description,
          schema: tool.parameters,
        }));
    default:
      return (request.tools ?? []).map((tool: { function: { name: string; description?: string; parameters: unknown } }) => ({
        name: tool.function.name,
        description: tool.function.description,
        schema: tool.function.parameters,
      }));
  }
}

/** Every `description` in a schema, by where it sits (`properties.recipes.items.properties.reason`). */
function descriptionsIn(schema: unknown, path: string[] = []): Array<{ path: string[]; description: string }> {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return [];
  const found: Array<{ path: string[]; description: string }> = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === "description" && typeof value === "string") found.push({ path, description: value });
    else if (key === "properties" && value && typeof value === "object") {
      for (const [name, property] of Object.entries(value)) found.push(...descriptionsIn(property, [...path, "properties", name]));
    } else if (key === "items") found.push(...descriptionsIn(value, [...path, "items"]));
  }
  return found;
}

const at = (schema: unknown, path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), schema);

describe.each(PROVIDER_WIRES)("the Recipes frontends' wording over $name", (wire) => {
  let server: Listening;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const tether = await createTetherApp({
      agents: [createRecipesAgent({ model: await wire.model(tap.url) })],
      authenticate: (request) => RECIPES_USERS.find((user) => user.id === request.headers.get("authorization")?.replace("Bearer ", "")),
      store: createMemoryRunStore(),
      logger: silentLogger,
    });
    server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
    close = async () => {
      await server.close();
      await tether.close();
    };
  });
  afterAll(async () => {
    await close();
  });

  /** What the provider SDK sent upstream for one run of this frontend. */
  async function upstreamTools(client: (typeof RECIPES_CLIENTS)[number], threadId: string): Promise<WireTool[]> {
    const before = tap.exchanges.length;
    const agent = recipesAgent(server.url, client.user, threadId);
    agent.addMessage({ id: `${threadId}-u1`, role: "user", content: ASK });
    const run = await runRecipes(agent, client.tools);
    expect(run.failed, client.name).toBeUndefined();
    expect(run.text).toBe(ANSWER);
    const calls = tap.exchanges.slice(before).filter((exchange) => wire.streamPath.test(exchange.path));
    expect(calls).toHaveLength(1);
    await calls[0]!.ended;
    return wireTools(wire, calls[0]!.body);
  }

  it.each(RECIPES_CLIENTS)("sends $name's tool descriptions, top-level and nested, to the model verbatim", async (client) => {
    const sent = await upstreamTools(client, `wording-${wire.name}-${client.name.replace(" ", "-")}`);
    // The agent's own tools (render_a2ui: it shows generated UI) and this frontend's.
    expect(sent.map((tool) => tool.name).sort()).toEqual(["getRecipe", "render_a2ui", "searchRecipes", ...client.tools.map((tool: Tool) => tool.name)].sort());
    let nested = 0;
    for (const declared of client.tools) {
      const upstream = sent.find((tool) => tool.name === declared.name)!;
      expect(upstream.description, `${declared.name}'s description`).toBe(declared.description);
      for (const { path, description } of descriptionsIn(declared.parameters)) {
        nested++;
        expect(at(upstream.schema, [...path, "description"]), `${declared.name} ${path.join(".")}`).toBe(description);
      }
    }
    expect(nested).toBeGreaterThan(0);
  });

  it("sends the phone's and the desktop's own words for the card's reason, not the allow-list's default", async () => {
    const reason = ["properties", "recipes", "items", "properties", "reason", "description"];
    const allowListed = at(offerRecipes.parameters, reason);
    for (const client of [RECIPES_CLIENTS[1]!, RECIPES_CLIENTS[3]!]) {
      const offer = (await upstreamTools(client, `reason-${wire.name}-${client.name.replace(" ", "-")}`)).find((tool) => tool.name === "offer_recipes")!;
      const declared = client.tools.find((tool) => tool.name === "offer_recipes")!;
      expect(at(offer.schema, reason)).toBe(at(declared.parameters, reason));
      expect(at(offer.schema, reason)).not.toBe(allowListed);
      expect(offer.description).toMatch(client.audience.mobile ? /exactly one/ : /at most three/);
    }
  });
});
