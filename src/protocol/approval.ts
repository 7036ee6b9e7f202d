import type { JsonSchema } from "./tool-arguments.ts";

/** The `reason` of an interrupt that asks a person to approve a tool call. */
export const TOOL_APPROVAL = "tool_approval";

/** What every approval answer holds; a tool may ask for more (an edited value). */
export interface ApprovalResponse {
  approved: boolean;
  comment?: string;
  [field: string]: unknown;
}

/** The response schema of an approval: `{ approved, comment? }` plus what the tool adds. */
export function approvalResponseSchema(extra: { properties?: Record<string, JsonSchema>; required?: string[] } = {}): JsonSchema {
  return {
    type: "object",
    properties: {
      approved: { type: "boolean", description: "Whether the action may go ahead." },
      comment: { type: "string", maxLength: 2000, description: "Why, in a few words." },
      ...extra.properties,
    },
    required: ["approved", ...(extra.required ?? [])],
    additionalProperties: false,
  };
}

/** What the server records as a tool's result when its approval was not given. */
export interface ApprovalRefusal {
  status: "rejected" | "cancelled";
  message: string;
  comment?: string;
}

/**
 * What an upstream agent is sent as the result of its own tool's call once it may go ahead: the
 * person approved it (with the arguments as approved), or Tether's config needed no approval for it.
 */
export interface ApprovalGrant {
  status: "approved";
  message: string;
  arguments: unknown;
  comment?: string;
}
