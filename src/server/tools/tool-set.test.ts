import type { Tool } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { defineBrowserTool, type JsonSchema } from "../../protocol/index.ts";
import { createScriptedModel } from "../../testing/index.ts";
import { KIM, LEE, type TestUser } from "../../../test/fixtures/messages.ts";
import { defineAgent, type BrowserToolPolicy } from "../agent/define-agent.ts";
import { defineTool } from "./define-tool.ts";
import { buildToolSet } from "./tool-set.ts";
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
    browserTools: [navigate, showRecipeCards],
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
      kind: "follow-up",
    });
    expect(log).toEqual([]);
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
      expect(error.status).toBe(400);
    });

    it("refuses a browser tool whose schema differs with tool_schema_mismatch and a readable diff", () => {
      const error = catchTetherError(() => buildToolSet(workdeskAgent("strict"), KIM, [navigateWithNumberId]));

      expect(error.code).toBe("tool_schema_mismatch");
      expect(error.message.split("\n")).toEqual([
        'The parameters of "navigate" differ from the allow-listed schema:',
        'properties.screenId.type: expected "string", got "number"',
      ]);
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
