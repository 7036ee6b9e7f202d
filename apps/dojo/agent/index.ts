import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createPlaybookModel, defineAgent, type Agent, type AgentDefinition, type Playbook, type PlaybookModelOptions } from "@tether-agent/tether/server";
import { agenticChat, agenticChatPlaybook } from "./agentic-chat.ts";
import { agenticGenerativeUi, agenticGenerativeUiPlaybook, type AgenticGenerativeUiOptions } from "./agentic-generative-ui.ts";
import { backendToolRendering, backendToolRenderingPlaybook } from "./backend-tool-rendering.ts";
import { humanInTheLoop, humanInTheLoopPlaybook } from "./human-in-the-loop.ts";
import { predictiveStateUpdates, predictiveStateUpdatesPlaybook } from "./predictive-state-updates.ts";
import { sharedState, sharedStatePlaybook } from "./shared-state.ts";
import { toolBasedGenerativeUi, toolBasedGenerativeUiPlaybook } from "./tool-based-generative-ui.ts";

/** The AG-UI dojo's features Tether serves, by the dojo's own ids: each is an agent of that id. */
export const DOJO_FEATURES = [
  "agentic_chat",
  "backend_tool_rendering",
  "human_in_the_loop",
  "agentic_generative_ui",
  "tool_based_generative_ui",
  "shared_state",
  "predictive_state_updates",
] as const;
export type DojoFeature = (typeof DOJO_FEATURES)[number];

export interface DojoAgentsOptions extends AgenticGenerativeUiOptions {
  /** A real model for every feature; without one each runs on its own offline playbook. */
  model?: LanguageModelV3;
  playbook?: PlaybookModelOptions;
}

/**
 * One agent per dojo feature, with the tool names and argument shapes of the
 * dojo's pages and fixtures, so the dojo's own frontends (CopilotKit, a plain
 * HttpAgent) and Tether's `/dojo/` pages drive them alike. Open to anyone
 * signed in; each thread is its owner's, as every Tether thread is.
 */
export function createDojoAgents(options: DojoAgentsOptions = {}): Agent[] {
  const features: Array<[Omit<AgentDefinition, "model">, Playbook]> = [
    [agenticChat, agenticChatPlaybook],
    [backendToolRendering, backendToolRenderingPlaybook],
    [humanInTheLoop, humanInTheLoopPlaybook],
    [agenticGenerativeUi(options), agenticGenerativeUiPlaybook],
    [toolBasedGenerativeUi, toolBasedGenerativeUiPlaybook],
    [sharedState, sharedStatePlaybook],
    [predictiveStateUpdates, predictiveStateUpdatesPlaybook],
  ];
  return features.map(([feature, playbook]) =>
    defineAgent({ ...feature, model: options.model ?? createPlaybookModel(playbook, options.playbook), history: "server", browserToolPolicy: "strict" }),
  );
}
