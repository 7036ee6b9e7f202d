/**
 * OpenTelemetry: spans for runs, model calls and tool executions. This folder's entry file: other
 * folders import it, never its modules.
 *
 * @module
 */
export type { TelemetryOptions } from "./telemetry-options.ts";
export { TRACER_NAME, traceRuns } from "./trace-runs.ts";
