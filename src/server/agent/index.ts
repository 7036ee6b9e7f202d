/**
 * Defining an agent: its model, tools, history mode and retry policy, and finding the agent a request
 * names. This folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { defineAgent, type Agent, type AgentDefinition, type BrowserToolPolicy } from "./define-agent.ts";
export { findAgentFor } from "./find-agent.ts";
export { DEFAULT_RETRY, type RetryPolicy } from "./retry-policy.ts";
export type { EngineConfirmation, EngineStepInput, StepCall, StepEngine, StepResult, StepTiming } from "./step-engine.ts";
