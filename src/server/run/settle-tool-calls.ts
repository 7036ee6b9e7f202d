import { EventType, type ToolMessage } from "@ag-ui/core";
import { TetherError, isTetherError } from "../../protocol/index.ts";
import type { HistoryMode } from "../agent/define-agent.ts";
import { askApproval } from "../interrupts/ask-approval.ts";
import type { StoredInterrupt } from "../store/port.ts";
import { errorContent, runServerTool } from "../tools/run-server-tool.ts";
import { checkArguments } from "../tools/validate-arguments.ts";
import type { StepCall } from "./model-step.ts";
import type { ToolScope } from "./tool-scope.ts";

export interface SettleOptions extends ToolScope {
  calls: StepCall[];
  /** For approvals: how interrupts are identified, and when they lapse. */
  approvals: { mode: HistoryMode; expiresInMs: number; secret: string; newId(): string; now(): Date };
}

export interface Settled {
  /** Results of server calls and of refused calls, in call order. */
  results: ToolMessage[];
  /** Browser calls with valid arguments: the browser executes them. */
  pending: StepCall[];
  /** Calls waiting for a person's approval; nothing ran for them. */
  interrupts: StoredInterrupt[];
}

type Decision = { result: string } | { pending: StepCall } | { interrupt: StoredInterrupt };
type Settling = { result: ToolMessage } | { pending: StepCall } | { interrupt: StoredInterrupt };

/**
 * Decides each tool call of a step. Arguments are checked against the tool's
 * schema before anything runs; a refused call becomes an error result the
 * model sees; a call that needs approval becomes an interrupt. Server calls
 * run in parallel and each result is sent as soon as it is ready, paired with
 * its call by id.
 */
export async function settleToolCalls(options: SettleOptions): Promise<Settled> {
  const decisions = await Promise.all(
    options.calls.map(async (call): Promise<Settling> => {
      const decision = await decide(call, options);
      if (!("result" in decision)) return decision;
      // Sent the moment it is ready, whatever the other calls are doing.
      const message: ToolMessage = { id: options.newMessageId(), role: "tool", toolCallId: call.toolCallId, content: decision.result };
      options.emit({ type: EventType.TOOL_CALL_RESULT, messageId: message.id, toolCallId: call.toolCallId, role: "tool", content: message.content });
      return { result: message };
    }),
  );
  const settled: Settled = { results: [], pending: [], interrupts: [] };
  for (const decision of decisions) {
    if ("pending" in decision) settled.pending.push(decision.pending);
    else if ("interrupt" in decision) settled.interrupts.push(decision.interrupt);
    else settled.results.push(decision.result);
  }
  return settled;
}

async function decide(call: StepCall, options: SettleOptions): Promise<Decision> {
  const refuse = (error: TetherError): Decision => ({ result: errorContent(error) });
  const tool = options.tools.get(call.toolName);
  if (!tool) return refuse(new TetherError("tool_unknown", `There is no tool named ${call.toolName} in this run; use one of: ${[...options.tools.keys()].join(", ")}.`));
  const check = checkArguments(tool.name, tool.parameters, call.argumentsText);
  if (!check.ok) return refuse(check.error);
  if (tool.approval?.needed(check.value, options.user)) {
    try {
      // A call this user may not make is refused now, not put to someone for approval.
      if (tool.location === "server") tool.server.authorize?.(tool.server.parse ? tool.server.parse(check.value) : check.value, options.user);
    } catch (error) {
      return refuse(isTetherError(error) ? error : new TetherError("tool_failed", `${tool.name} refused: ${(error as Error)?.message}`));
    }
    return {
      interrupt: askApproval({
        toolCallId: call.toolCallId,
        tool: tool as typeof tool & { approval: NonNullable<typeof tool.approval> },
        args: check.value,
        argumentsText: call.argumentsText,
        user: options.user,
        threadId: options.threadId,
        runId: options.runId,
        ...options.approvals,
      }),
    };
  }
  if (tool.location === "browser") return { pending: call };
  const content = await runServerTool(tool.server, check.value, {
    user: options.user,
    threadId: options.threadId,
    runId: options.runId,
    toolCallId: call.toolCallId,
    signal: options.signal,
  });
  return { result: content };
}
