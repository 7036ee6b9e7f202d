import { FunctionTool, LlmAgent } from "@google/adk";
import { defineBrowserTool } from "@tether-agent/tether/protocol";
import { createScriptedLlm, defineAdkAgent } from "@tether-agent/tether/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";

/** A careless app developer's ADK agent definitions, refused at start-up rather than mid-run. */

const agent = () =>
  new LlmAgent({
    name: "assistant",
    model: createScriptedLlm([]),
    instruction: "Help.",
    tools: [new FunctionTool({ name: "note", description: "Notes.", parameters: z.object({}), execute: () => ({}) })],
  });

describe("a careless ADK agent definition", () => {
  it.each(["adk_request_confirmation", "adk_request_credential", "adk_request_input"])(
    "refuses a browser tool named %s (ADK's own request: its calls and results would be taken for ADK's)",
    (name) => {
      const tool = defineBrowserTool({ name, description: "A page action.", parameters: { type: "object", properties: {} } });
      expect(() => defineAdkAgent({ id: "adk", agent: agent(), browserTools: [tool] })).toThrow(expect.objectContaining({ code: "config_invalid" }));
    },
  );

  it("refuses a browser tool with the name of one of the agent's own tools", () => {
    const tool = defineBrowserTool({ name: "note", description: "A page action.", parameters: { type: "object", properties: {} } });
    expect(() => defineAdkAgent({ id: "adk", agent: agent(), browserTools: [tool] })).toThrow(expect.objectContaining({ code: "config_invalid" }));
  });
});
