import { APICallError, LoadAPIKeyError, LoadSettingError, getErrorMessage } from "@ai-sdk/provider";
import { TetherError, isTetherError } from "../../protocol/index.ts";
import { redactString } from "../record/index.ts";

/** What kind of failure a provider's error is, as far as its status and type say. */
export type ProviderFailure = "not_configured" | "authentication" | "rate_limit" | "bad_request" | "unavailable" | "failed";

/** What Tether knows of a provider's failure, apart from the provider's own words: safe to tell the client. */
export interface ProviderErrorFacts {
  statusCode?: number;
  failure: ProviderFailure;
  /** Whether trying again later may succeed, as the provider's status says. */
  retryable: boolean;
}

const WORDS: Record<ProviderFailure, string> = {
  not_configured: "the server lacks an API key or setting for it",
  authentication: "it refused the server's credentials",
  rate_limit: "it is limiting requests",
  bad_request: "it refused the request as invalid",
  unavailable: "it is unavailable",
  failed: "it stopped with an error while answering",
};

/**
 * Whatever a model threw, as a TetherError worded by Tether from what is
 * known (the provider's HTTP status, the kind of failure, whether to try
 * again), never with the provider's own text: providers and proxies echo
 * requests back in their errors (the API key, a header, the prompt), and this
 * message goes to the client. The provider's words, redacted, are for the
 * operator: `providerMessage` gives them to the record and the server log.
 */
export function toModelError(error: unknown): TetherError {
  if (isTetherError(error)) return error;
  const facts = providerErrorFacts(error);
  const status = facts.statusCode ? `HTTP ${facts.statusCode}; ` : "";
  const again = facts.retryable ? "try again later" : "trying again will not help";
  return new TetherError(
    facts.failure === "rate_limit" ? "model_rate_limited" : "model_error",
    `The model provider failed: ${WORDS[facts.failure]} (${status}${again}). Its own message is in the server's log.`,
    { cause: error, details: facts },
  );
}

/** The provider's own words about a model error, redacted: for the record and the server log, never for the client. */
export function providerMessage(error: unknown): string | undefined {
  const cause = isTetherError(error) ? error.cause : error;
  if (cause === undefined) return undefined;
  return redactString(providerText(cause));
}

/** The status, kind and retryability of a provider's error. */
export function providerErrorFacts(error: unknown): ProviderErrorFacts {
  // Thrown before any request (OPENAI_API_KEY unset, say): the server's configuration, which no retry mends.
  if (LoadAPIKeyError.isInstance(error) || LoadSettingError.isInstance(error)) return { failure: "not_configured", retryable: false };
  if (APICallError.isInstance(error)) {
    const statusCode = error.statusCode;
    return { ...(statusCode ? { statusCode } : {}), failure: failureOfStatus(statusCode), retryable: error.isRetryable };
  }
  const failure = failureOfType(error);
  return { failure, retryable: failure === "rate_limit" || failure === "unavailable" || failure === "failed" };
}

function failureOfStatus(status: number | undefined): ProviderFailure {
  if (status === 401 || status === 403) return "authentication";
  if (status === 429) return "rate_limit";
  if (status === 408 || (status !== undefined && status >= 500)) return "unavailable";
  if (status !== undefined && status >= 400) return "bad_request";
  return "failed";
}

/**
 * A mid-stream error comes as the provider's error object (`{ type, code,
 * message }`, `{ error: { type } }`): its type and code say what kind it is.
 */
function failureOfType(error: unknown): ProviderFailure {
  if (typeof error !== "object" || error === null) return "failed";
  const { type, code, error: inner } = error as { type?: unknown; code?: unknown; error?: { type?: unknown; code?: unknown } };
  const kind = [type, code, inner?.type, inner?.code].filter((part) => typeof part === "string" || typeof part === "number").join(" ");
  if (/rate_?limit|quota|429/i.test(kind)) return "rate_limit";
  if (/auth|permission|api_?key|401|403/i.test(kind)) return "authentication";
  if (/invalid_request|bad_request|not_found|400|404/i.test(kind)) return "bad_request";
  if (/overload|server_error|api_error|unavailable|timeout|5\d\d/i.test(kind)) return "unavailable";
  return "failed";
}

/** Providers send mid-stream errors as plain objects (`{ type, message }`, `{ error: { message } }`): their message, not the JSON. */
function providerText(error: unknown): string {
  if (typeof error === "object" && error !== null && !(error instanceof Error)) {
    const { message, error: inner } = error as { message?: unknown; error?: { message?: unknown } };
    if (typeof message === "string") return message;
    if (typeof inner?.message === "string") return inner.message;
  }
  return getErrorMessage(error);
}
