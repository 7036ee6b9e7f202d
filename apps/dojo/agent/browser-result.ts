import { parseToolOutcome } from "@tether-agent/tether/protocol";

/** What a page said its tool did: done, not done, or not known. */
export interface BrowserResult {
  done: boolean | undefined;
  message?: string;
}

/**
 * Reads a browser tool's result whichever page sent it: Tether's pages report
 * an outcome (`{ status: "succeeded" | "failed" | … }`), the dojo's CopilotKit
 * pages their own (`{ status: "success", message }`, or a plain string). Only
 * a result that says it worked counts as done.
 */
export function readBrowserResult(output: unknown): BrowserResult {
  const outcome = parseToolOutcome(output);
  if (outcome) return { done: outcome.status === "succeeded" ? true : outcome.status === "unknown" ? undefined : false, ...words(outcome.message) };
  if (typeof output === "string") return { done: undefined, message: output };
  if (output && typeof output === "object" && "status" in output) {
    const { status, message } = output as { status?: unknown; message?: unknown };
    const done = status === "success" ? true : status === "error" || status === "failed" ? false : undefined;
    return { done, ...words(message) };
  }
  return { done: undefined };
}

const words = (message: unknown) => (typeof message === "string" && message ? { message } : {});
