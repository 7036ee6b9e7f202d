/**
 * One error type for everything Tether can refuse or fail at.
 *
 * Codes are specific, lowercase snake_case strings gathered in one object so
 * they form a string union. What a code means on a wire is the transport's:
 * the server's HTTP layer maps every code to a status (`server/http/error-status.ts`),
 * so a new code does not compile until it has one.
 *
 * @module
 */

export const TETHER_ERROR_CODES = {
  // The request itself.
  invalid_json: "invalid_json",
  invalid_input: "invalid_input",
  invalid_id: "invalid_id",
  invalid_trigger: "invalid_trigger",
  invalid_last_event_id: "invalid_last_event_id",
  unsupported_media_type: "unsupported_media_type",
  body_too_large: "body_too_large",
  client_gone: "client_gone",
  // Who is asking.
  unauthenticated: "unauthenticated",
  forbidden: "forbidden",
  cross_origin_request: "cross_origin_request",
  // What they ask for.
  not_found: "not_found",
  agent_not_found: "agent_not_found",
  thread_not_found: "thread_not_found",
  run_not_found: "run_not_found",
  user_not_found: "user_not_found",
  // Tools declared by the browser.
  tool_not_allowed: "tool_not_allowed",
  tool_schema_mismatch: "tool_schema_mismatch",
  tool_name_conflict: "tool_name_conflict",
  tool_duplicate: "tool_duplicate",
  // History and run state.
  history_conflict: "history_conflict",
  tool_result_unknown: "tool_result_unknown",
  tool_result_conflict: "tool_result_conflict",
  tool_results_pending: "tool_results_pending",
  run_in_progress: "run_in_progress",
  run_exists: "run_exists",
  run_not_active: "run_not_active",
  run_cancelled: "run_cancelled",
  // Browser reports about a run.
  report_too_large: "report_too_large",
  report_limit_exceeded: "report_limit_exceeded",
  // Approvals (interrupts) and their answers.
  interrupt_pending: "interrupt_pending",
  interrupt_unknown: "interrupt_unknown",
  interrupt_expired: "interrupt_expired",
  interrupt_thread_mismatch: "interrupt_thread_mismatch",
  resume_invalid: "resume_invalid",
  resume_conflict: "resume_conflict",
  // Actions on generated UI (a click on a surface that starts a run).
  ui_action_invalid: "ui_action_invalid",
  surface_unknown: "surface_unknown",
  ui_action_unknown: "ui_action_unknown",
  // Shared state: the client's is not what the agent's schema allows; a tool's change would break it (told to the model).
  invalid_state: "invalid_state",
  state_patch_invalid: "state_patch_invalid",
  // Tool calls made by the model (reported to the model, not to HTTP clients).
  invalid_arguments: "invalid_arguments",
  tool_unknown: "tool_unknown",
  tool_failed: "tool_failed",
  // The run after it started.
  step_limit_exceeded: "step_limit_exceeded",
  model_error: "model_error",
  model_rate_limited: "model_rate_limited",
  // An AG-UI agent Tether runs in front of (defineAgent's `upstream`): it failed, or could not be reached in time.
  upstream_error: "upstream_error",
  upstream_unavailable: "upstream_unavailable",
  // Storage and the process that runs a run.
  store_unavailable: "store_unavailable",
  instance_lost: "instance_lost",
  // Start-up and configuration.
  tool_executor_missing: "tool_executor_missing",
  model_provider_unknown: "model_provider_unknown",
  model_config_missing: "model_config_missing",
  config_invalid: "config_invalid",
  data_dir_in_use: "data_dir_in_use",
  // In the browser: the request never got an answer (fetch failed, or the stream dropped and every reconnect
  // failed). The server never sends it; it is a code so that a session's state holds only codes of this union.
  network_error: "network_error",
  // Ours.
  internal: "internal",
} as const;

export type TetherErrorCode = keyof typeof TETHER_ERROR_CODES;

const RETRYABLE: ReadonlySet<TetherErrorCode> = new Set([
  "model_rate_limited",
  "model_error",
  "upstream_unavailable",
  "store_unavailable",
  "instance_lost",
  "network_error",
]);

// A Symbol.for marker survives the package being bundled twice, where instanceof does not.
const MARKER = Symbol.for("tether.error");

export interface TetherErrorOptions {
  cause?: unknown;
  /** Structured facts about the failure (a schema diff, the offending id). */
  details?: unknown;
}

export class TetherError extends Error {
  readonly [MARKER] = true;
  readonly code: TetherErrorCode;
  readonly details?: unknown;

  constructor(code: TetherErrorCode, message: string, options: TetherErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "TetherError";
    this.code = code;
    if (options.details !== undefined) this.details = options.details;
  }

  /** Whether trying again later may succeed (rate limits, upstream failures). */
  get retryable(): boolean {
    return RETRYABLE.has(this.code);
  }

  /** The body sent before a stream opens: `{ error: { code, message, details? } }`. */
  toJSON(): { error: { code: TetherErrorCode; message: string; details?: unknown } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export function isTetherError(value: unknown): value is TetherError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}

export function isTetherErrorCode(value: unknown): value is TetherErrorCode {
  return typeof value === "string" && Object.hasOwn(TETHER_ERROR_CODES, value);
}

/** Wraps whatever was thrown: known errors pass through, anything else becomes `internal`. */
export function toTetherError(error: unknown): TetherError {
  if (isTetherError(error)) return error;
  return new TetherError("internal", "Something went wrong inside Tether.", { cause: error });
}
