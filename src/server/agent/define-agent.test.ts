import { describe, expect, it } from "vitest";
import { createScriptedModel } from "../../testing/index.ts";
import { isTetherError } from "../../protocol/index.ts";
import { defineAgent, type AgentDefinition } from "./define-agent.ts";

function refusal(definition: unknown): { code: string; message: string } {
  try {
    defineAgent(definition as AgentDefinition);
  } catch (error) {
    if (isTetherError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("defineAgent accepted it");
}

describe("defineAgent", () => {
  it("refuses an agent without a model, naming TETHER_MODEL, instead of failing every run later", () => {
    for (const model of [undefined, null, {}, "openai:gpt-4o-mini"]) {
      const { code, message } = refusal({ id: "helper", model });
      expect(code).toBe("config_invalid");
      expect(message).toContain('Agent "helper"');
      expect(message).toContain("TETHER_MODEL");
      // Only the demo server reads TETHER_MODEL: someone defining their own agent must not be sent to set it.
      expect(message).toContain("The demo server (npm start) makes it from TETHER_MODEL");
    }
  });

  it("refuses a state schema that does not compile, or an initial state it refuses, naming the agent", () => {
    const model = createScriptedModel([]);
    expect(refusal({ id: "recipes", model, state: { schema: { type: "object", properties: { n: { type: "nmber" } } } } })).toMatchObject({
      code: "config_invalid",
      message: expect.stringMatching(/^Agent "recipes" has a state schema that is not a valid JSON Schema/),
    });
    expect(refusal({ id: "recipes", model, state: { schema: { type: "object", required: ["n"] }, initial: { m: 1 } } })).toEqual({
      code: "config_invalid",
      message: `Agent "recipes" has a state.initial that does not fit: it does not match the state schema: (the state) must have required property 'n'.`,
    });
    expect(defineAgent({ id: "recipes", model, state: { schema: { type: "object" }, initial: { n: 1 } } }).state?.initial).toEqual({ n: 1 });
  });

  it("takes any object that streams as an AI SDK model does", () => {
    expect(defineAgent({ id: "helper", model: createScriptedModel([{ text: "hi" }]) }).id).toBe("helper");
  });

  it("refuses a model of AI SDK 5 (specification v2) or older, naming the provider packages it takes", () => {
    const v2 = { specificationVersion: "v2", provider: "openai.chat", modelId: "gpt-4o-mini", doStream: async () => ({}) };
    const { code, message } = refusal({ id: "helper", model: v2 });
    expect(code).toBe("config_invalid");
    expect(message).toContain('specification "v2"');
    expect(message).toContain("@ai-sdk/openai 3 or 4");
  });

  it("takes an upstream AG-UI agent in place of a model, and refuses one given with a model, instructions or a malformed endpoint", () => {
    const agent = defineAgent({ id: "front", upstream: { url: "http://127.0.0.1:9/agent?key=secret" } });
    expect(agent.model).toBeUndefined();
    // The record names where the agent is, never the query that may carry its key.
    expect(agent.engine).toEqual({ provider: "ag-ui", modelId: "http://127.0.0.1:9/agent" });
    const model = createScriptedModel([{ text: "hi" }]);
    expect(refusal({ id: "front", upstream: { url: "http://127.0.0.1:9" }, model }).message).toContain("also model");
    expect(refusal({ id: "front", upstream: { url: "http://127.0.0.1:9" }, instructions: "Be brief." }).message).toContain("also instructions");
    expect(refusal({ id: "front", upstream: { url: "ftp://example.com" } }).message).toContain("not an http(s) URL");
    expect(refusal({ id: "front", upstream: { url: "http://127.0.0.1:9", idleTimeoutMs: 0 } }).message).toContain("idleTimeoutMs must be a positive integer");
    expect(refusal({ id: "front", upstream: { run: "no" } }).code).toBe("config_invalid");
  });

  it("refuses a malformed welcome at definition, and leaves out a per-user one that comes out malformed", () => {
    const model = createScriptedModel([{ text: "hi" }]);
    for (const welcome of [{ greeting: "" }, { suggestions: ["a", "b", "c", "d", "e", "f", "g"] }, { suggestions: ["  "] }, { suggestions: "open it" }]) {
      const { code, message } = refusal({ id: "helper", model, welcome });
      expect(code).toBe("config_invalid");
      expect(message).toContain('Agent "helper" has a malformed welcome');
    }
    const agent = defineAgent({ id: "helper", model, welcome: (user) => (user.id === "kim" ? { greeting: "Hi Kim" } : { suggestions: [""] }) });
    expect(agent.welcome({ id: "kim" })).toEqual({ greeting: "Hi Kim" });
    expect(agent.welcome({ id: "lee" })).toBeUndefined();
    expect(defineAgent({ id: "helper", model }).welcome({ id: "kim" })).toBeUndefined();
  });
});
