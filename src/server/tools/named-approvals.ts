import { TetherError, approvalResponseSchema } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { RunToolApproval } from "./tool-set.ts";

/**
 * How a tool named in an upstream agent's `approvals` is put to a person: every call (`true`),
 * the calls a predicate on the arguments picks, or either with the question in words.
 */
export type ApprovalByName<User extends TetherUser = TetherUser> =
  true | ((args: any, user: User) => boolean) | { when?: (args: any, user: User) => boolean; message?: (args: any, user: User) => string };

/** Checks an agent's `approvals` once, at definition, and makes each the approval a run applies. */
export function toNamedApprovals(agentId: string, option: Record<string, ApprovalByName<any>> | undefined): Map<string, RunToolApproval> {
  const approvals = new Map<string, RunToolApproval>();
  for (const [name, given] of Object.entries(option ?? {})) {
    const form = given === true ? {} : typeof given === "function" ? { when: given } : given;
    if (typeof form !== "object" || form === null || Array.isArray(form) || !isHook(form.when) || !isHook(form.message)) {
      throw new TetherError(
        "config_invalid",
        `Agent "${agentId}": approvals.${name} must be true, a predicate (args, user) => boolean, or { when?, message? }.`,
      );
    }
    const { when, message } = form;
    approvals.set(name, {
      needed: when ? (args, user) => when(args, user) === true : () => true,
      message: message ? (args, user) => message(args, user) : (args) => `Allow ${name} with ${JSON.stringify(args)}?`,
      responseSchema: approvalResponseSchema(),
      apply: (args) => args,
    });
  }
  return approvals;
}

function isHook(value: unknown): boolean {
  return value === undefined || typeof value === "function";
}
