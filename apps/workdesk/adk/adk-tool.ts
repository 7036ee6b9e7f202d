import { FunctionTool, type Context } from "@google/adk";
import { adkToolScope } from "@tether-agent/tether/adk";
import { TetherError, isTetherError, type ApprovalResponse } from "@tether-agent/tether/protocol";
import type { ServerTool } from "@tether-agent/tether/server";
import type { z } from "zod";
import type { WorkdeskUser } from "../agent/index.ts";

/**
 * A Workdesk server tool as an ADK `FunctionTool`: the Tether tool's own name,
 * description, rights check (`authorize`), approval rule (`needsApproval`),
 * edit of an approved call (`applyApproval`) and code (`execute`), for the
 * user `adkToolScope` names. So the ADK agent can never see or do more than
 * the Tether agent lets the same user. Only the arguments' schema is ADK's
 * own (a zod object, which ADK declares to the model and checks each call
 * against); tools.test.ts holds it to the Tether tool's.
 *
 * A call that needs a person's approval is held by ADK (`requireConfirmation`)
 * and asked by Tether; a call the user may not make is refused without asking
 * anyone, as the Tether tool refuses it.
 */
export function toAdkTool<Shape extends z.ZodRawShape>(
  tool: ServerTool<z.infer<z.ZodObject<Shape>>, WorkdeskUser>,
  parameters: z.ZodObject<Shape>,
): FunctionTool<z.ZodObject<Shape>> {
  const { needsApproval } = tool;
  return new FunctionTool({
    name: tool.name,
    description: tool.description,
    parameters,
    ...(needsApproval !== undefined
      ? {
          requireConfirmation: (args: z.infer<z.ZodObject<Shape>>, context?: Context) => {
            const { user } = scopeOf(tool.name, context);
            // Nobody is asked about a call that would be refused: execute refuses it.
            if (refusal(() => tool.authorize?.(args, user))) return false;
            return typeof needsApproval === "function" ? needsApproval(args, user) : needsApproval;
          },
        }
      : {}),
    execute: async (args, context) => {
      const { user, threadId, runId, signal, state } = scopeOf(tool.name, context);
      const confirmation = context?.toolConfirmation;
      // ADK runs a call whose confirmation predicate turned false after a person said no; a "no" stays a no.
      if (confirmation && !confirmation.confirmed) return { error: "This tool call is rejected." };
      try {
        tool.authorize?.(args, user);
        const approved = confirmation?.payload as ApprovalResponse | undefined;
        const final = approved && tool.applyApproval ? tool.applyApproval(args, approved) : args;
        return await tool.execute(final, { user, threadId, runId, toolCallId: context?.functionCallId ?? "", signal, state });
      } catch (error) {
        // A refusal (not in your organisation, only a manager may) is an answer for the model, in ADK's shape for
        // a tool's error and in the tool's own words; anything else is a fault, which ADK reports as such.
        if (isTetherError(error)) return { error: error.message };
        throw error;
      }
    },
  });
}

function scopeOf(toolName: string, context: Context | undefined) {
  if (!context) throw new TetherError("config_invalid", `${toolName} was called without ADK's tool context: it runs only in an agent served by Tether.`);
  return adkToolScope<WorkdeskUser>(context);
}

/** Whether the check refuses (throws a TetherError); anything else it throws is a fault and goes on. */
function refusal(check: () => void): boolean {
  try {
    check();
    return false;
  } catch (error) {
    if (isTetherError(error)) return true;
    throw error;
  }
}
