import type { ResumeEntry, ToolMessage } from "@ag-ui/core";
import { TetherError, type ApprovalRefusal, type ApprovalResponse } from "../../protocol/index.ts";
import { type ToolCall, type ToolScope, errorContent, runServerTool, sendToolResult } from "../tools/index.ts";
import type { StoredInterrupt } from "../store/index.ts";
import { grantContent } from "./grant.ts";

export interface AnswersApplied {
  /** The result of each answered call: executed, refused, or rejected by the person. */
  results: ToolMessage[];
  /** Approved browser calls: now the browser may perform them. */
  pending: ToolCall[];
  /** Answers to calls an in-process engine held (`engineConfirms`): the engine carries them out, or not, itself. */
  forEngine: Array<{ stored: StoredInterrupt; answer: ResumeEntry }>;
}

/**
 * Acts on the answers a run carried. An approved server call executes now,
 * an approved upstream call is answered "approved" for the upstream to carry out,
 * once, with the approved arguments, and its TOOL_CALL_RESULT goes out on the
 * call's original id; a rejected or cancelled one gets a result saying so and
 * nothing runs. An engine's held call, once approved, is left to the engine,
 * which is told on its next step and carries it out itself. The store already marked each interrupt answered before this
 * ran, so a repeated answer can never reach here twice.
 */
export async function applyAnswers(
  options: ToolScope & {
    answers: Array<{ stored: StoredInterrupt; answer: ResumeEntry }>;
    /** The agent is an engine run in process: its own held calls' answers are handed to it, not granted here. */
    engineConfirms?: boolean;
  },
): Promise<AnswersApplied> {
  const applied: AnswersApplied = { results: [], pending: [], forEngine: [] };
  for (const { stored, answer } of options.answers) {
    // Only a go-ahead needs the engine (it runs the call itself); a no is answered here, as for any tool.
    const approved = answer.status === "resolved" && (answer.payload as ApprovalResponse | undefined)?.approved === true;
    if (options.engineConfirms && approved && options.tools.get(stored.toolName)?.location === "upstream") {
      applied.forEngine.push({ stored, answer });
      continue;
    }
    const content = await resultFor(stored, answer, options, applied.pending);
    if (content === undefined) continue;
    applied.results.push(sendToolResult(options, stored.toolCallId, content));
  }
  return applied;
}

async function resultFor(
  stored: StoredInterrupt,
  answer: ResumeEntry,
  options: Parameters<typeof applyAnswers>[0],
  pending: ToolCall[],
): Promise<string | undefined> {
  const response = answer.payload as ApprovalResponse | undefined;
  if (answer.status === "cancelled" || !response?.approved) {
    const refusal: ApprovalRefusal = {
      status: answer.status === "cancelled" ? "cancelled" : "rejected",
      message:
        answer.status === "cancelled"
          ? `The approval for ${stored.toolName} was cancelled; it did not run.`
          : `The user rejected ${stored.toolName}; it did not run.`,
      ...(response?.comment ? { comment: response.comment } : {}),
    };
    return JSON.stringify(refusal);
  }
  const tool = options.tools.get(stored.toolName);
  if (!tool?.approval)
    return errorContent(new TetherError("tool_unknown", `${stored.toolName} is no longer available to this user, so the approval could not be acted on.`));
  const original = options.checker.check(tool.name, tool.parameters, stored.arguments);
  if (!original.ok) return errorContent(original.error);
  // The person may have edited a value; what runs must still satisfy the tool's schema.
  const approved = options.checker.check(tool.name, tool.parameters, JSON.stringify(tool.approval.apply(original.value, response)));
  if (!approved.ok) return errorContent(approved.error);
  // The upstream's own tool: the upstream does the work once told it may.
  if (tool.location === "upstream") return grantContent(tool.name, approved.value, response);
  if (tool.location === "browser") {
    pending.push({ toolCallId: stored.toolCallId, toolName: tool.name, argumentsText: stored.arguments });
    return undefined;
  }
  return runServerTool(tool.server, approved.value, {
    user: options.user,
    threadId: options.threadId,
    runId: options.runId,
    toolCallId: stored.toolCallId,
    signal: options.signal,
    state: options.state,
  });
}
