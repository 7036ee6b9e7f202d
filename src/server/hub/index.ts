/**
 * The hub: each run's live events, fanned out to its followers, sequenced, with cancels and liveness
 * read from the store. This folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { createRunHub } from "./hub.ts";
export type { HubLogger, RunChannel, RunEnding, RunHub, RunHubFactory } from "./port.ts";
export { isRunLive } from "./run-liveness.ts";
export { sequenceEvents, type SequencedEvent } from "./sequence-events.ts";
export { watchStoredCancels, withStoredCancels, type StoredCancelWatcher } from "./stored-cancels.ts";
export { isRunning, storedAfter } from "./stored-run-events.ts";
