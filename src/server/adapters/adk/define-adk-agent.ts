import { isBaseTool, isLlmAgent, type LlmAgent } from "@google/adk";
import { TetherError } from "../../../protocol/index.ts";
import type { TetherUser } from "../../auth/index.ts";
import { defineAgent, type Agent, type AgentDefinition } from "../../agent/index.ts";
import { createAdkEngine } from "./adk-engine.ts";
import { FRAMEWORK_CALLS } from "./framework-calls.ts";

export interface AdkAgentDefinition<User extends TetherUser = TetherUser> extends Omit<
  AgentDefinition<User>,
  "model" | "upstream" | "stepEngine" | "instructions" | "tools" | "generatedUi" | "approvals" | "retry"
> {
  /** The ADK agent. Tether runs a clone of it per step and never changes it; its model, instructions and tools are its own. */
  agent: LlmAgent;
  /**
   * How the person is asked about a call the agent's tool holds for confirmation
   * (`FunctionTool({ requireConfirmation })`, or `requestConfirmation()` in the tool), by tool name.
   * Default: "Allow <tool> with <arguments>?". ADK's own hint speaks to the model, not to a person.
   */
  approvals?: Record<string, { message?: (args: any, user: User) => string }>;
}

/**
 * An ADK agent served by Tether: its runs, stored threads, browser tools (allow-listed, run once by
 * the page), approvals (ADK's confirmations as AG-UI interrupts) and records are Tether's; its model,
 * instructions and tools stay ADK's. Checked once, at start-up.
 */
export function defineAdkAgent<User extends TetherUser = TetherUser>(definition: AdkAgentDefinition<User>): Agent<User> {
  const { agent, approvals: wording, ...rest } = definition;
  if (!isLlmAgent(agent)) throw new TetherError("config_invalid", `Agent "${definition.id}": agent must be an LlmAgent from @google/adk.`);
  if (agent.subAgents.length > 0) {
    throw new TetherError("config_invalid", `Agent "${definition.id}": ADK sub-agents are not served yet; give an LlmAgent without subAgents.`);
  }
  try {
    void agent.canonicalModel;
  } catch (error) {
    throw new TetherError(
      "config_invalid",
      `Agent "${definition.id}": the ADK agent's model could not be made (${(error as Error).message}). Give the LlmAgent a model; a model name such as "gemini-2.5-flash" needs GOOGLE_API_KEY.`,
    );
  }
  const tools = agent.tools.filter((tool) => isBaseTool(tool));
  const names = new Set(tools.map((tool) => tool.name));
  for (const tool of tools) {
    // Its result would come from outside any run, with nothing to tie it back: not served until designed.
    if (tool.isLongRunning) {
      throw new TetherError(
        "config_invalid",
        `Agent "${definition.id}": ${tool.name} is a long-running ADK tool, which Tether does not serve yet; make it a browser tool, or a tool that needs confirmation.`,
      );
    }
  }
  for (const spec of definition.browserTools ?? []) {
    if (FRAMEWORK_CALLS.has(spec.name)) {
      throw new TetherError("config_invalid", `Agent "${definition.id}": "${spec.name}" is the name of ADK's own request; give the browser tool another name.`);
    }
    if (names.has(spec.name)) {
      throw new TetherError("config_invalid", `Agent "${definition.id}" has "${spec.name}" as an ADK tool and as a browser tool: tools share one namespace.`);
    }
  }
  for (const name of Object.keys(wording ?? {})) {
    if (!names.has(name)) throw new TetherError("config_invalid", `Agent "${definition.id}": approvals.${name} names no tool of the ADK agent.`);
  }
  // Any of the agent's tools may hold a call for confirmation (a tool may ask itself): only held calls are left open.
  const approvals = Object.fromEntries([...names].map((name) => [name, { ...(wording?.[name]?.message ? { message: wording[name].message } : {}) }]));
  return defineAgent<User>({
    ...rest,
    description: definition.description ?? agent.description ?? "",
    stepEngine: createAdkEngine(agent, { maxLlmCalls: definition.maxSteps ?? 8 }),
    approvals,
  });
}
