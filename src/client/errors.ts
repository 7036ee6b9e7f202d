import { TetherError, isTetherError, isTetherErrorCode, type TetherErrorCode } from "../protocol/index.ts";

/**
 * An error as the session's state holds it. Its code is always one of the
 * union: a body or a RUN_ERROR with a code this client does not know (another
 * server, a newer Tether) becomes `internal`, its words kept, rather than
 * widening the type to any string: an app can switch over every code the
 * state may hold, and the compiler tells it when one is added.
 */
export interface SessionError {
  code: TetherErrorCode;
  message: string;
}

/** An HTTP error body (`{ error: { code, message } }`) back as the TetherError the server threw. */
export async function errorFromResponse(response: Response): Promise<TetherError> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = undefined;
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (error && isTetherErrorCode(error.code) && typeof error.message === "string") {
    return new TetherError(error.code, error.message, { details: error.details });
  }
  return new TetherError("internal", `The server answered HTTP ${response.status} without a Tether error.`);
}

/** A RUN_ERROR event back as a TetherError. */
export function errorFromRunError(event: { code?: string; message: string }): TetherError {
  return new TetherError(isTetherErrorCode(event.code) ? event.code : "internal", event.message);
}

/** Any error as the session's state shows it: `{ code, message }`; a request that never reached the server, in words. */
export function errorJson(error: unknown): SessionError {
  if (isTetherError(error)) return { code: error.code, message: error.message };
  if (isNetworkFailure(error)) return { code: "network_error", message: "Couldn't reach the server. Check the connection, then try again." };
  return { code: "internal", message: (error as Error)?.message ?? String(error) };
}

/** fetch's own rejection when no answer came: Chrome's "Failed to fetch", Firefox's "NetworkError…", Safari's "Load failed". */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && /failed to fetch|networkerror|load failed|fetch failed/i.test(error.message);
}

/**
 * Whether sending a message again as it is may work, by code: the network, a
 * busy or failing server, a run still going (the server's 5xx, 409 and 429),
 * not a refusal of the message itself. A `Record`, so a new code must be
 * placed here to compile; `test/client/resend-codes.test.ts` holds it to the
 * server's statuses.
 */
const RESEND_MAY_WORK: Record<TetherErrorCode, boolean> = {
  invalid_json: false,
  invalid_input: false,
  invalid_id: false,
  invalid_trigger: false,
  invalid_last_event_id: false,
  unsupported_media_type: false,
  body_too_large: false,
  client_gone: false,
  unauthenticated: false,
  forbidden: false,
  cross_origin_request: false,
  not_found: false,
  agent_not_found: false,
  thread_not_found: false,
  run_not_found: false,
  user_not_found: false,
  tool_not_allowed: false,
  tool_schema_mismatch: false,
  tool_name_conflict: false,
  tool_duplicate: false,
  history_conflict: true,
  tool_result_unknown: true,
  tool_result_conflict: true,
  tool_results_pending: true,
  run_in_progress: true,
  run_exists: true,
  run_not_active: true,
  run_cancelled: true,
  report_too_large: false,
  report_limit_exceeded: true,
  interrupt_pending: true,
  interrupt_unknown: false,
  interrupt_expired: false,
  interrupt_thread_mismatch: false,
  resume_invalid: false,
  resume_conflict: true,
  ui_action_invalid: false,
  surface_unknown: false,
  ui_action_unknown: false,
  invalid_state: false,
  state_patch_invalid: false,
  invalid_arguments: false,
  tool_unknown: false,
  tool_failed: true,
  step_limit_exceeded: true,
  model_error: true,
  model_rate_limited: true,
  upstream_error: true,
  upstream_unavailable: true,
  store_unavailable: true,
  instance_lost: true,
  tool_executor_missing: true,
  model_provider_unknown: true,
  model_config_missing: true,
  config_invalid: true,
  data_dir_in_use: true,
  network_error: true,
  internal: true,
};

/** Worth sending again as it is (see `RESEND_MAY_WORK`). */
export function isRetryable(code: TetherErrorCode): boolean {
  return RESEND_MAY_WORK[code];
}
