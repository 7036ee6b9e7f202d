/**
 * Running an agent: the runner, the run loop and its preparation, ids, model errors, the lease
 * sweeper. This folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { createRandomIds, type IdSource } from "./ids.ts";
export { DEFAULT_LEASE_SWEEP_MS, startLeaseSweeper } from "./lease-sweeper.ts";
export { providerMessage, toModelError } from "./model-error.ts";
export type { NewRun } from "./prepare-run.ts";
export type { ObserveRun, RunObserver } from "./run-observer.ts";
export { createRunner, type Runner } from "./runner.ts";
export { createStepMessages } from "./step-messages.ts";
