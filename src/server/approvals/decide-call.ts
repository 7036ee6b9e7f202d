import { TetherError, isTetherError, type ArgumentChecker } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { ToolCall, RunTool, RunToolApproval } from "../tools/index.ts";

/** What happens to one tool call whose arguments are complete. */
export type CallDecision =
  /** Refused before anything runs: the model gets the error as the call's result. */
  | { kind: "refused"; error: TetherError }
  /** A person must approve it first; nothing runs until they do. */
  | { kind: "ask"; tool: RunTool & { approval: RunToolApproval }; args: unknown }
  /** It may go ahead: a server tool runs, a browser tool goes to the browser. */
  | { kind: "go"; tool: RunTool; args: unknown };

/**
 * The one place that decides, per call and once, whether it may run, must be
 * approved first, or is refused. The browser hears of an approval at the
 * call's TOOL_CALL_END and the run settles the call after the step; both ask
 * here, and get the same answer.
 */
export function createCallDecisions(tools: Map<string, RunTool>, user: TetherUser, checker: ArgumentChecker) {
  const decided = new Map<string, CallDecision>();
  return function decide(call: ToolCall): CallDecision {
    let decision = decided.get(call.toolCallId);
    if (!decision) decided.set(call.toolCallId, (decision = decideOnce(call, tools, user, checker)));
    return decision;
  };
}

export type DecideCall = ReturnType<typeof createCallDecisions>;

function decideOnce(call: ToolCall, tools: Map<string, RunTool>, user: TetherUser, checker: ArgumentChecker): CallDecision {
  const tool = tools.get(call.toolName);
  if (!tool) {
    return {
      kind: "refused",
      error: new TetherError("tool_unknown", `There is no tool named ${call.toolName} in this run; use one of: ${[...tools.keys()].join(", ")}.`),
    };
  }
  const check = checker.check(tool.name, tool.parameters, call.argumentsText);
  if (!check.ok) return { kind: "refused", error: check.error };
  if (!tool.approval?.needed(check.value, user)) return { kind: "go", tool, args: check.value };
  try {
    // A call this user may not make is refused now, not put to someone for approval.
    if (tool.location === "server") tool.server.authorize?.(tool.server.parse ? tool.server.parse(check.value) : check.value, user);
  } catch (error) {
    return { kind: "refused", error: isTetherError(error) ? error : new TetherError("tool_failed", `${tool.name} refused: ${(error as Error)?.message}`) };
  }
  return { kind: "ask", tool: tool as RunTool & { approval: RunToolApproval }, args: check.value };
}
