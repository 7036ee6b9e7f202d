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
  return new TetherError("model_error", `The model failed: ${providerMessage(error)}`, { cause: error });
}

/** Providers send mid-stream errors as plain objects (`{ type, message }`, `{ error: { message } }`): say the message, not the JSON. */
function providerMessage(error: unknown): string {
  if (typeof error === "object" && error !== null && !(error instanceof Error)) {
    const { message, error: inner } = error as { message?: unknown; error?: { message?: unknown } };
    if (typeof message === "string") return message;
    if (typeof inner?.message === "string") return inner.message;
  }
  return getErrorMessage(error);
}
