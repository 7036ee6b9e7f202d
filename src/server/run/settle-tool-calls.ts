import { EventType, type BaseEvent, type ToolMessage } from "@ag-ui/core";
import { TetherError, isTetherError } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/user.ts";
import type { RunTool } from "../tools/tool-set.ts";
import { checkArguments } from "../tools/validate-arguments.ts";
import type { StepCall } from "./model-step.ts";

export interface SettleOptions {
  calls: StepCall[];
  tools: Map<string, RunTool>;
  user: TetherUser;
  threadId: string;
  runId: string;
  signal: AbortSignal;
  emit(event: BaseEvent): void;
  newMessageId(): string;
}

export interface Settled {
  /** Results of server calls and of refused calls, in call order. */
  results: ToolMessage[];
  /** Browser calls with valid arguments: the browser executes them. */
  pending: StepCall[];
}

/**
 * Decides each tool call of a step. Arguments are checked against the tool's
 * schema before anything runs; a refused call becomes an error result the
 * model sees. Server calls run in parallel and each result is sent as soon as
 * it is ready, paired with its call by id.
 */
export async function settleToolCalls(options: SettleOptions): Promise<Settled> {
  const pending: StepCall[] = [];
  const results = await Promise.all(
    options.calls.map(async (call): Promise<ToolMessage | undefined> => {
      const content = await decide(call, options, pending);
      if (content === undefined) return undefined;
      const message: ToolMessage = { id: options.newMessageId(), role: "tool", toolCallId: call.toolCallId, content };
      options.emit({ type: EventType.TOOL_CALL_RESULT, messageId: message.id, toolCallId: call.toolCallId, role: "tool", content });
      return message;
    }),
  );
  // Pending calls were pushed as they were decided; report them in the model's order.
  pending.sort((a, b) => options.calls.indexOf(a) - options.calls.indexOf(b));
  return { results: results.filter((message) => message !== undefined), pending };
}

async function decide(call: StepCall, options: SettleOptions, pending: StepCall[]): Promise<string | undefined> {
  const tool = options.tools.get(call.toolName);
  if (!tool) {
    return errorContent(new TetherError("tool_unknown", `There is no tool named ${call.toolName} in this run; use one of: ${[...options.tools.keys()].join(", ")}.`));
  }
  const check = checkArguments(tool.name, tool.parameters, call.argumentsText);
  if (!check.ok) return errorContent(check.error);
  if (tool.location === "browser") {
    pending.push(call);
    return undefined;
  }
  try {
    const args = tool.server.parse ? tool.server.parse(check.value) : check.value;
    const output = await tool.server.execute(args, {
      user: options.user,
      threadId: options.threadId,
      runId: options.runId,
      toolCallId: call.toolCallId,
      signal: options.signal,
    });
    return typeof output === "string" ? output : JSON.stringify(output ?? null);
  } catch (error) {
    return errorContent(isTetherError(error) ? error : new TetherError("tool_failed", `${tool.name} failed: ${(error as Error)?.message ?? String(error)}`));
  }
}

/** The content of an error result: `{ "error": { "code", "message" } }`, the shape the prompt marks as an error. */
export function errorContent(error: TetherError): string {
  return JSON.stringify({ error: { code: error.code, message: error.message } });
}
