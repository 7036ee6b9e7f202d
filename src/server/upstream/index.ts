/**
 * AG-UI agents Tether runs in front of (`defineAgent({ upstream })`): reaching one, and its failures
 * in Tether's words. The run turns its events into the run's own (run/upstream-step.ts). This
 * folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { toUpstreamAgent, type RunnableAgent, type UpstreamAgent, type UpstreamAgentOption, type UpstreamEndpoint } from "./upstream-agent.ts";
export { upstreamFailure } from "./upstream-failure.ts";
export type { UpstreamLimits } from "./check-events.ts";
