import { APICallError, getErrorMessage } from "@ai-sdk/provider";
import { TetherError, isTetherError } from "../../protocol/index.ts";

/** Whatever a model threw, as a TetherError carrying the provider's own message. */
export function toModelError(error: unknown): TetherError {
  if (isTetherError(error)) return error;
  if (APICallError.isInstance(error)) {
    const code = error.statusCode === 429 ? "model_rate_limited" : "model_error";
    const status = error.statusCode ? ` (HTTP ${error.statusCode})` : "";
    return new TetherError(code, `The model provider failed${status}: ${error.message}`, {
      cause: error,
      details: { statusCode: error.statusCode, retryable: error.isRetryable },
    });
  }
  return new TetherError("model_error", `The model failed: ${getErrorMessage(error)}`, { cause: error });
}
