import type { TetherErrorCode } from "../../protocol/index.ts";

/**
 * The HTTP status of each code, used before a stream opens (after it, the code
 * travels in RUN_ERROR and the status is the stream's 200). It lives here, not
 * beside the codes, because a status is HTTP's word for a code: the protocol
 * and the browser know codes only. A `Record` over every code, so a new code
 * does not compile until it has a status.
 */
export const HTTP_STATUS: Record<TetherErrorCode, number> = {
  invalid_json: 400,
  invalid_input: 400,
  invalid_id: 400,
  invalid_trigger: 400,
  invalid_last_event_id: 400,
  unsupported_media_type: 415,
  body_too_large: 413,
  // nginx's "client closed request": nobody reads it, but a log or a proxy shows why nothing ran.
  client_gone: 499,
  unauthenticated: 401,
  forbidden: 403,
  cross_origin_request: 403,
  not_found: 404,
  agent_not_found: 404,
  thread_not_found: 404,
  run_not_found: 404,
  user_not_found: 404,
  tool_not_allowed: 400,
  tool_schema_mismatch: 400,
  tool_name_conflict: 400,
  tool_duplicate: 400,
  history_conflict: 409,
  tool_result_unknown: 409,
  tool_result_conflict: 409,
  tool_results_pending: 409,
  run_in_progress: 409,
  run_exists: 409,
  run_not_active: 409,
  run_cancelled: 409,
  report_too_large: 413,
  report_limit_exceeded: 429,
  interrupt_pending: 409,
  interrupt_unknown: 404,
  interrupt_expired: 410,
  interrupt_thread_mismatch: 403,
  resume_invalid: 400,
  resume_conflict: 409,
  ui_action_invalid: 400,
  surface_unknown: 404,
  ui_action_unknown: 404,
  invalid_arguments: 400,
  tool_unknown: 400,
  tool_failed: 500,
  step_limit_exceeded: 500,
  model_error: 502,
  upstream_error: 502,
  upstream_unavailable: 504,
  model_rate_limited: 429,
  store_unavailable: 503,
  instance_lost: 503,
  tool_executor_missing: 500,
  model_provider_unknown: 500,
  model_config_missing: 500,
  config_invalid: 500,
  data_dir_in_use: 500,
  // The browser's own code; the server never answers with it. Were a proxy to relay it, this is what it means.
  network_error: 503,
  internal: 500,
};
