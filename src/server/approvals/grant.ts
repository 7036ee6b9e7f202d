import type { ApprovalGrant } from "../../protocol/index.ts";

/** The result an upstream agent's own call gets when it may go ahead: it does the work, Tether only asked. */
export function grantContent(toolName: string, args: unknown, answer?: { comment?: string }): string {
  const grant: ApprovalGrant = {
    status: "approved",
    message: answer ? `The user approved ${toolName}; go ahead with these arguments.` : `${toolName} needs no approval with these arguments; go ahead.`,
    arguments: args,
    ...(answer?.comment ? { comment: answer.comment } : {}),
  };
  return JSON.stringify(grant);
}
