import { z } from "zod";

/**
 * What a browser tool really did. The outcome is the content of the tool
 * message the browser sends back, so the agent only ever speaks from facts.
 */
export const TOOL_OUTCOME_STATUSES = ["succeeded", "failed", "blocked", "cancelled", "unknown"] as const;
export type ToolOutcomeStatus = (typeof TOOL_OUTCOME_STATUSES)[number];

/** How far the action got: asked for, the screen switched, its data on display. */
export const TOOL_OUTCOME_STAGES = ["requested", "switched", "displayed"] as const;
export type ToolOutcomeStage = (typeof TOOL_OUTCOME_STAGES)[number];

export const TOOL_OUTCOME_REASONS = [
  "access_denied",
  "blocked_by_mode",
  "org_scope_mismatch",
  "popup_blocked",
  "not_found",
  "timeout",
  "page_reloaded",
  "invalid_arguments",
  "no_result_reported",
  "executor_failed",
] as const;
export type ToolOutcomeReason = (typeof TOOL_OUTCOME_REASONS)[number];

export const ToolOutcomeSchema = z.object({
  status: z.enum(TOOL_OUTCOME_STATUSES),
  stage: z.enum(TOOL_OUTCOME_STAGES).optional(),
  reason: z.enum(TOOL_OUTCOME_REASONS).optional(),
  /** A sentence for the model and the timeline. */
  message: z.string().max(2000).optional(),
  /** Anything the tool wants the agent to know (the route to follow by hand, a count). */
  data: z.record(z.string(), z.unknown()).optional(),
});

export type ToolOutcome = z.infer<typeof ToolOutcomeSchema>;

/** Reads an outcome from a tool message's content; undefined when it is not one. */
export function parseToolOutcome(content: unknown): ToolOutcome | undefined {
  let value = content;
  if (typeof content === "string") {
    try {
      value = JSON.parse(content);
    } catch {
      return undefined;
    }
  }
  const parsed = ToolOutcomeSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The outcome the server records for a browser call nobody answered before the user moved on. */
export function noResultOutcome(toolName: string): ToolOutcome {
  return {
    status: "unknown",
    reason: "no_result_reported",
    message: `No result was reported for ${toolName} before the conversation moved on; it may or may not have happened.`,
  };
}
