/**
 * The API's routes: running an agent, runs, threads, capabilities. This folder's entry file: other
 * folders import it, never its modules.
 *
 * @module
 */
export { capabilityRoutes } from "./capabilities.ts";
export { runAgentRoutes } from "./run.ts";
export { runRoutes } from "./runs.ts";
export { threadRoutes } from "./threads.ts";
