/**
 * Shared state (AG-UI `state`): an agent's schema for it, what a run starts
 * from, and the run's holder that checks, applies and streams every change.
 * This folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { compileAgentState, type AgentStateConfig, type AgentStateOption } from "./agent-state.ts";
export { defineState, type StateDefinition } from "./define-state.ts";
export { diffOperations } from "./json-patch.ts";
export { createRunState, type RunState } from "./run-state.ts";
export { checkPredictedState, createStatePredictor, type PredictedState, type StatePredictor } from "./predict-state.ts";
export { ANY_OBJECT_STATE, STATE_SIZE_LIMIT, type StateRefusal, type StateSchema } from "./state-schema.ts";
export { startingState, type StartingState } from "./starting-state.ts";
