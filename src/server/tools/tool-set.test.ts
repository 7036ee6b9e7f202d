import type { Tool } from "@ag-ui/core";
import { describe, expect, it, vi } from "vitest";
import { defineBrowserTool, type JsonSchema } from "../../protocol/index.ts";
import { createScriptedModel } from "../../testing/index.ts";
import { KIM, LEE, type TestUser } from "../../../test/fixtures/messages.ts";
import { defineAgent, type BrowserToolPolicy } from "../agent/index.ts";
import { createCallDecisions } from "../approvals/index.ts";
import { defineTool } from "./define-tool.ts";
import { buildToolSet } from "./tool-set.ts";
import { HTTP_STATUS } from "../http/index.ts";
import { catchTetherError } from "../../testing/index.ts";

const navigate = defineBrowserTool({
  name: "navigate",
  description: "Opens a screen of the app in the content area.",
  parameters: {
    type: "object",
    properties: { screenId: { type: "string" } },
    required: ["screenId"],
    additionalProperties: false,
  },
});

const showRecipeCards = defineBrowserTool({
  name: "showRecipeCards",
  description: "Shows recipe cards.",
  parameters: { type: "object", properties: { recipeIds: { type: "array", items: { type: "string" } } } },
  kind: "render-only",
});

const offerRecipes = defineBrowserTool({
  name: "offerRecipes",
  description: "Offers recipes to the user.",
  parameters: {
    type: "object",
    properties: {
      recipes: {
        type: "array",
        description: "The recipes to offer, at most three.",
        items: {
          type: "object",
          properties: { id: { type: "string" }, reason: { type: "string", description: "Why this recipe fits." } },
          required: ["id", "reason"],
          additionalProperties: false,
        },
      },
    },
    required: ["recipes"],
    additionalProperties: false,
  },
});

/** offerRecipes as a frontend declares it, with `edit` applied to its own copy of the schema. */
function declaredOfferRecipes(edit: (recipeItem: { properties: Record<string, Record<string, unknown>> }) => void): Tool {
  const parameters = structuredClone(offerRecipes.parameters) as {
    properties: { recipes: { items: { properties: Record<string, Record<string, unknown>> } } };
  };
  edit(parameters.properties.recipes.items);
  return { name: "offerRecipes", description: "", parameters };
}

const findScreen = defineTool({
  name: "findScreen",
  description: "Finds a screen by name.",
  parameters: { type: "object", properties: { query: { type: "string" } } },
  execute: () => ({ screenId: "MNU-3120" }),
});

const closeWorkRequest = defineTool<JsonSchema, TestUser>({
  name: "closeWorkRequest",
  description: "Closes a work request.",
  parameters: { type: "object", properties: { id: { type: "string" } } },
  execute: () => ({ closed: true }),
  visibleTo: (user) => user.roles.includes("manager"),
});

function workdeskAgent(policy: BrowserToolPolicy) {
  return defineAgent({
    id: "workdesk",
    model: createScriptedModel([]),
    tools: [findScreen, closeWorkRequest],
    browserTools: [navigate, showRecipeCards, offerRecipes],
    browserToolPolicy: policy,
  });
}

const declaredNavigate: Tool = { name: "navigate", description: navigate.description, parameters: structuredClone(navigate.parameters) };

const navigateWithNumberId: Tool = {
  ...declaredNavigate,
  parameters: { ...navigate.parameters, properties: { screenId: { type: "number" } } },
};

describe("buildToolSet", () => {
  it("offers the visible server tools and the allow-listed browser tools the client declared", () => {
    const { tools, log } = buildToolSet(workdeskAgent("strict"), KIM, [declaredNavigate]);

    expect([...tools.keys()]).toEqual(["findScreen", "navigate"]);
    expect(tools.get("findScreen")).toMatchObject({ location: "server", description: "Finds a screen by name." });
    expect(tools.get("navigate")).toEqual({
      location: "browser",
      name: "navigate",
      description: "Opens a screen of the app in the content area.",
      parameters: navigate.parameters,
      modelParameters: navigate.parameters,
      kind: "follow-up",
    });
    expect(log).toEqual([]);
  });

  it("asks a browser tool's approval in its own words, or names the tool and arguments", () => {
    const base = { ...navigate, needsApproval: true };
    const worded = { ...base, approvalMessage: (args: Record<string, unknown>) => `Open ${String(args.screenId)}?` };
    const agent = (spec: typeof base) => defineAgent({ id: "a", model: createScriptedModel([]), browserTools: [spec] });
    const asked = (spec: typeof base) =>
      buildToolSet(agent(spec), KIM, [declaredNavigate]).tools.get("navigate")!.approval!.message({ screenId: "MNU-3100" }, KIM);
    expect(asked(worded)).toBe("Open MNU-3100?");
    expect(asked(base)).toBe('Allow navigate with {"screenId":"MNU-3100"}?');
  });

  it("names a long tool that is not allowed by its first 63 characters", () => {
    const name = "x".repeat(5000);
    const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [{ name, description: "", parameters: {} }]));
    expect(error.code).toBe("tool_not_allowed");
    expect(error.message.length).toBeLessThan(200);
    expect(error.message).toContain(`"${"x".repeat(63)}…"`);
  });

  it("never lets one user's odd declaration decide another's: -0 where the allow-list has 0 is refused, and the exact schema after it is accepted", () => {
    for (const policy of ["strict", "drop"] as const) {
      // A tool of its own per policy: what one round remembers cannot answer for the other.
      const timer = defineBrowserTool({
        name: "startTimer",
        description: "Starts a timer.",
        parameters: { type: "object", properties: { seconds: { type: "number", minimum: 0 } }, required: ["seconds"] },
      });
      const exact = JSON.stringify(timer.parameters);
      const declared = (json: string): Tool => ({ name: "startTimer", description: timer.description, parameters: JSON.parse(json) as JsonSchema });
      const agent = defineAgent({ id: "timers", model: createScriptedModel([]), browserTools: [timer], browserToolPolicy: policy });
      const odd = () => buildToolSet(agent, KIM, [declared(exact.replace('"minimum":0', '"minimum":-0'))]);
      if (policy === "strict") expect(catchTetherError(odd).code).toBe("tool_schema_mismatch");
      else {
        const { tools, log } = odd();
        expect(tools.has("startTimer")).toBe(false);
        expect(log).toContainEqual(expect.objectContaining({ code: "tool_dropped", details: { tool: "startTimer", reason: "tool_schema_mismatch" } }));
      }
      const { tools, log } = buildToolSet(agent, LEE, [declared(exact)]);
      expect(tools.has("startTimer")).toBe(true);
      expect(log).not.toContainEqual(expect.objectContaining({ code: "tool_dropped" }));
    }
  });

  it("leaves out allow-listed browser tools the client did not declare", () => {
    const { tools } = buildToolSet(workdeskAgent("strict"), KIM, []);

    expect(tools.has("navigate")).toBe(false);
    expect(tools.has("showRecipeCards")).toBe(false);
  });

  it("carries the browser tool's kind from the allow-list", () => {
    const declared: Tool = { name: "showRecipeCards", description: "", parameters: showRecipeCards.parameters };

    expect(buildToolSet(workdeskAgent("strict"), KIM, [declared]).tools.get("showRecipeCards")).toMatchObject({ kind: "render-only" });
  });

  it("filters server tools through visibleTo for the user", () => {
    expect(buildToolSet(workdeskAgent("strict"), KIM, []).tools.has("closeWorkRequest")).toBe(false);
    expect(buildToolSet(workdeskAgent("strict"), LEE, []).tools.get("closeWorkRequest")).toMatchObject({ location: "server" });
  });

  it("accepts a description override but keeps the allow-listed schema", () => {
    const mobile: Tool = {
      name: "navigate",
      description: "Opens a screen (on mobile the panel closes first).",
      parameters: { additionalProperties: false, required: ["screenId"], properties: { screenId: { type: "string" } }, type: "object" },
    };

    const tool = buildToolSet(workdeskAgent("strict"), KIM, [mobile]).tools.get("navigate");

    expect(tool?.description).toBe("Opens a screen (on mobile the panel closes first).");
    expect(tool?.parameters).toBe(navigate.parameters);
    expect(tool?.modelParameters).toBe(navigate.parameters);
  });

  it("offers a server tool's own schema to the model", () => {
    const tool = buildToolSet(workdeskAgent("strict"), KIM, []).tools.get("findScreen");

    expect(tool?.modelParameters).toBe(findScreen.parameters);
  });

  it("accepts a changed nested description and shows the model the client's schema as declared", () => {
    const mobile = declaredOfferRecipes((recipeItem) => (recipeItem.properties.reason!.description = "Offer exactly one recipe; say why it fits."));

    const tool = buildToolSet(workdeskAgent("strict"), KIM, [mobile]).tools.get("offerRecipes");

    expect(tool?.modelParameters).toEqual(mobile.parameters);
    expect(tool?.modelParameters).toMatchObject({
      properties: { recipes: { items: { properties: { reason: { description: "Offer exactly one recipe; say why it fits." } } } } },
    });
    expect(tool?.parameters).toBe(offerRecipes.parameters);
  });

  it("accepts title, examples and $comment added at depth", () => {
    const annotated = declaredOfferRecipes((recipeItem) => {
      recipeItem.properties.id!.title = "Recipe id";
      recipeItem.properties.id!.examples = ["r-101"];
      recipeItem.properties.reason!.$comment = "Shown under the card.";
    });

    expect(buildToolSet(workdeskAgent("strict"), KIM, [annotated]).tools.get("offerRecipes")?.modelParameters).toEqual(annotated.parameters);
  });

  it("checks arguments against the allow-listed schema object, never the client's copy", () => {
    const agent = workdeskAgent("strict");
    const check = vi.spyOn(agent.checker, "check");
    const mobile = declaredOfferRecipes((recipeItem) => (recipeItem.properties.reason!.description = "One sentence."));
    const { tools, checker } = buildToolSet(agent, KIM, [mobile]);

    const decision = createCallDecisions(tools, KIM, checker)({ toolCallId: "call_1", toolName: "offerRecipes", argumentsText: '{"recipes":[{"id":"r-1"}]}' });

    expect(decision).toMatchObject({ kind: "refused", error: { code: "invalid_arguments" } });
    expect(check).toHaveBeenCalledOnce();
    expect(check.mock.calls[0]![1]).toBe(offerRecipes.parameters);
  });

  it("falls back to the allow-listed description when the client sends an empty one", () => {
    const tool = buildToolSet(workdeskAgent("strict"), KIM, [{ ...declaredNavigate, description: "" }]).tools.get("navigate");

    expect(tool?.description).toBe("Opens a screen of the app in the content area.");
  });

  describe("with the strict policy", () => {
    it("refuses a browser tool that is not on the allow-list with tool_not_allowed", () => {
      const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [{ name: "deleteEverything", description: "x", parameters: {} }]));

      expect(error.code).toBe("tool_not_allowed");
      expect(error.message).toBe('"deleteEverything" is not on agent "workdesk"\'s browser-tool allow-list.');
      expect(HTTP_STATUS[error.code]).toBe(400);
    });

    it("refuses a browser tool whose schema differs with tool_schema_mismatch and a readable diff", () => {
      const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [navigateWithNumberId]));

      expect(error.code).toBe("tool_schema_mismatch");
      expect(error.message.split("\n")).toEqual([
        'The parameters of "navigate" differ from the allow-listed schema:',
        'properties.screenId.type: expected "string", got "number"',
      ]);
    });

    it("refuses a type changed at depth with tool_schema_mismatch, naming its path", () => {
      const changed = declaredOfferRecipes((recipeItem) => (recipeItem.properties.id!.type = "integer"));

      const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [changed]));

      expect(error.code).toBe("tool_schema_mismatch");
      expect(error.message.split("\n")).toEqual([
        'The parameters of "offerRecipes" differ from the allow-listed schema:',
        'properties.recipes.items.properties.id.type: expected "string", got "integer"',
      ]);
    });

    it("names only the shape differences when a refused schema also rewords a description", () => {
      const changed = declaredOfferRecipes((recipeItem) => {
        recipeItem.properties.id!.type = "integer";
        recipeItem.properties.reason!.description = "One sentence.";
      });

      const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [changed]));

      expect(error.message).not.toContain("description");
      expect((error.details as { refused: Array<{ diff: string }> }).refused[0]!.diff).toBe(
        'properties.recipes.items.properties.id.type: expected "string", got "integer"',
      );
    });

    it("refuses a property named description that the allow-list does not have", () => {
      const extended = declaredOfferRecipes((recipeItem) => (recipeItem.properties.description = { type: "string" }));

      const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [extended]));

      expect(error.code).toBe("tool_schema_mismatch");
      expect(error.message).toContain('properties.recipes.items.properties.description: not in the allow-listed schema (got {"type":"string"})');
    });

    it("refuses a browser tool named like a server tool with tool_name_conflict", () => {
      const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [{ name: "findScreen", description: "x", parameters: {} }]));

      expect(error.code).toBe("tool_name_conflict");
      expect(error.message).toBe('"findScreen" is the name of a server tool; a browser tool cannot take it.');
    });

    it("refuses a name conflict with a server tool even when the user cannot see that server tool", () => {
      const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [{ name: "closeWorkRequest", description: "x", parameters: {} }]));

      expect(error.code).toBe("tool_name_conflict");
    });

    it("refuses the same browser tool declared twice with tool_duplicate", () => {
      const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [declaredNavigate, declaredNavigate]));

      expect(error.code).toBe("tool_duplicate");
      expect(error.message).toBe('The browser tool "navigate" is declared twice in this request.');
    });

    it("names every refused tool, with the first refusal's code", () => {
      const error = catchTetherError(() =>
        buildToolSet(workdeskAgent("strict"), KIM, [navigateWithNumberId, { name: "deleteEverything", description: "x", parameters: {} }]),
      );

      expect(error.code).toBe("tool_schema_mismatch");
      expect(error.message).toContain('properties.screenId.type: expected "string", got "number"');
      expect(error.message).toContain('"deleteEverything" is not on agent "workdesk"\'s browser-tool allow-list.');
      expect((error.details as { refused: Array<{ code: string; tool: string }> }).refused.map(({ code, tool }) => ({ code, tool }))).toEqual([
        { code: "tool_schema_mismatch", tool: "navigate" },
        { code: "tool_not_allowed", tool: "deleteEverything" },
      ]);
    });
  });

  describe("with the drop policy", () => {
    it("leaves out refused browser tools and logs tool_dropped with each reason", () => {
      const declared: Tool[] = [
        navigateWithNumberId,
        { name: "deleteEverything", description: "x", parameters: {} },
        { name: "findScreen", description: "x", parameters: {} },
        { name: "showRecipeCards", description: "Shows cards.", parameters: showRecipeCards.parameters },
      ];

      const { tools, log } = buildToolSet(workdeskAgent("drop"), KIM, declared);

      expect([...tools.keys()]).toEqual(["findScreen", "showRecipeCards"]);
      expect(tools.get("findScreen")?.location).toBe("server");
      expect(log.map((entry) => ({ level: entry.level, code: entry.code, details: entry.details }))).toEqual([
        { level: "warn", code: "tool_dropped", details: { tool: "navigate", reason: "tool_schema_mismatch" } },
        { level: "warn", code: "tool_dropped", details: { tool: "deleteEverything", reason: "tool_not_allowed" } },
        { level: "warn", code: "tool_dropped", details: { tool: "findScreen", reason: "tool_name_conflict" } },
      ]);
      expect(log[0]!.message).toContain('properties.screenId.type: expected "string", got "number"');
    });

    it("still refuses the same browser tool declared twice with tool_duplicate", () => {
      expect(catchTetherError(() => buildToolSet(workdeskAgent("drop"), KIM, [declaredNavigate, declaredNavigate])).code).toBe("tool_duplicate");
    });
  });
});
