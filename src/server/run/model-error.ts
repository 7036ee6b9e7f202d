import { APICallError, getErrorMessage } from "@ai-sdk/provider";
import { TetherError, isTetherError } from "../../protocol/index.ts";
import { redactString } from "../record/redact.ts";

/**
 * Whatever a model threw, as a TetherError carrying the provider's own message,
 * secrets redacted: some providers and proxies echo the request's headers (the
 * API key) in their errors, and this message goes to the client and the record.
 */
export function toModelError(error: unknown): TetherError {
  if (isTetherError(error)) return error;
  if (APICallError.isInstance(error)) {
    const code = error.statusCode === 429 ? "model_rate_limited" : "model_error";
    const status = error.statusCode ? ` (HTTP ${error.statusCode})` : "";
    return new TetherError(code, `The model provider failed${status}: ${redactString(error.message)}`, {
      cause: error,
      details: { statusCode: error.statusCode, retryable: error.isRetryable },
    });
  }
  return new TetherError("model_error", `The model failed: ${redactString(providerMessage(error))}`, { cause: error });
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
