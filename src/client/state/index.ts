/**
 * An agent's shared state in the browser: the person's edits on top of the
 * agent's, and the rule when both change it at once (`createStateEdits`).
 *
 * @module
 */
export { createStateEdits, type SharedState, type StateConflict, type StateEdits } from "./state-edits.ts";
export { cloneJson, type JsonPatchOperation } from "./json-patch.ts";
