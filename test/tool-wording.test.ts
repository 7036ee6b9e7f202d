import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import { defineBrowserTool, toAgUiTool } from "@tether-agent/tether/protocol";
import { parseSseFrames } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { createScriptedApp, types } from "./helpers/scripted-app.ts";

const offerRecipes = defineBrowserTool({
  name: "offerRecipes",
  description: "Offers recipes to the user.",
  parameters: {
    type: "object",
    properties: {
      recipes: {
        type: "array",
        items: {
          type: "object",
          properties: { id: { type: "string" }, reason: { type: "string", description: "Why this recipe fits; offer at most three." } },
          required: ["id", "reason"],
          additionalProperties: false,
        },
      },
    },
    required: ["recipes"],
    additionalProperties: false,
  },
});

/** offerRecipes as a frontend declares it, its recipe item's `reason` schema replaced. */
function declared(reason: Record<string, unknown>) {
  const tool = toAgUiTool(offerRecipes);
  const parameters = structuredClone(tool.parameters) as { properties: { recipes: { items: { properties: Record<string, unknown> } } } };
  parameters.properties.recipes.items.properties.reason = reason;
  return { ...tool, parameters };
}

const user = { id: "u1", role: "user" as const, content: "something for dinner" };

describe("a frontend's wording of a browser tool, over HTTP", () => {
  it("runs with a reworded nested description, and the model reads the frontend's words", async () => {
    const app = await createScriptedApp([{ text: "Try the lentil soup." }], { browserTools: [offerRecipes] });
    const mobile = declared({ type: "string", description: "Offer exactly one recipe; say why it fits." });

    const response = await app.post({ threadId: "t1", runId: "r1", messages: [user], tools: [mobile] });

    expect(response.status).toBe(200);
    expect(types(parseSseFrames(await response.text())).at(-1)).toBe("RUN_FINISHED");
    const offered = app.model.calls[0]!.tools!.find((tool) => tool.name === "offerRecipes") as LanguageModelV3FunctionTool;
    expect(offered.inputSchema).toEqual(mobile.parameters);
    expect(JSON.stringify(offered.inputSchema)).toContain("Offer exactly one recipe; say why it fits.");
  });

  it("refuses a nested type the allow-list does not have with 400 tool_schema_mismatch", async () => {
    const app = await createScriptedApp([], { browserTools: [offerRecipes] });

    const response = await app.post({ threadId: "t1", runId: "r1", messages: [user], tools: [declared({ type: "number" })] });

    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("tool_schema_mismatch");
    expect(error.message).toContain('properties.recipes.items.properties.reason.type: expected "string", got "number"');
    expect(app.model.calls).toEqual([]);
  });
});
