import { isTetherError, type ToolOutcome } from "@tether-agent/tether/protocol";

/**
 * What a failed request to the Recipes API means for a tool's outcome. An
 * answer from the API is a refusal: `failed`, with its code as the reason
 * (`forbidden` for a guest) and its message. No answer at all (offline, a
 * dropped connection) leaves it open whether the server acted: `unknown`.
 */
export function failureOutcome(error: unknown, unanswered: string): ToolOutcome {
  if (isTetherError(error)) return { status: "failed", reason: error.code, message: error.message };
  return { status: "unknown", reason: "network_error", message: unanswered };
}
