import { z } from "zod";

/**
 * What a browser tool really did. The outcome is the content of the tool
 * message the browser sends back, so the agent only ever speaks from facts.
 * The library knows the statuses and the reasons any tool can meet; how far
 * an action got (`stage`) and reasons of its own are the app's words.
 */
export const TOOL_OUTCOME_STATUSES = ["succeeded", "failed", "blocked", "cancelled", "unknown"] as const;
export type ToolOutcomeStatus = (typeof TOOL_OUTCOME_STATUSES)[number];

/** Reasons any browser tool can meet, whatever the app: the library reports these itself. */
export const TOOL_OUTCOME_REASONS = ["invalid_arguments", "blocked_by_mode", "page_reloaded", "timeout", "no_result_reported", "executor_failed"] as const;
export type ToolOutcomeReason = (typeof TOOL_OUTCOME_REASONS)[number];

/** An app's own word for a stage or a reason: lowercase snake_case, as error codes are. */
const APP_WORD = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, "lowercase snake_case")
  .max(64);

export const ToolOutcomeSchema = z.object({
  status: z.enum(TOOL_OUTCOME_STATUSES),
  /** How far the action got, in the app's words (the Workdesk's navigation: `requested`, `switched`, `displayed`). */
  stage: APP_WORD.optional(),
  /** Why it did not succeed: one of TOOL_OUTCOME_REASONS, or the app's own (`access_denied`, `popup_blocked`). */
  reason: APP_WORD.optional(),
  /** A sentence for the model and the timeline. */
  message: z.string().max(2000).optional(),
  /** Anything the tool wants the agent to know (the route to follow by hand, a count). */
  data: z.record(z.string(), z.unknown()).optional(),
});

/** An outcome; an app may narrow the words its tools use for stages and reasons. */
export type ToolOutcome<Stage extends string = string, Reason extends string = string> = Omit<z.infer<typeof ToolOutcomeSchema>, "stage" | "reason"> & {
  stage?: Stage;
  reason?: Reason | ToolOutcomeReason;
};

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
