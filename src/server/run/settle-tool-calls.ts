import type { ToolMessage } from "@ag-ui/core";
import type { HistoryMode } from "../history/index.ts";
import { askApproval, grantContent, type DecideCall } from "../approvals/index.ts";
import type { StoredInterrupt } from "../store/index.ts";
import { errorContent, runServerTool, sendToolResult, type ToolScope } from "../tools/index.ts";
import type { StepCall } from "./model-step.ts";
import { RENDER_A2UI, type SurfaceLifecycle } from "../genui/surfaces/index.ts";
import type { ToolCallFact } from "../record/index.ts";

export interface SettleOptions extends ToolScope {
  calls: StepCall[];
  /** The run's decision per call: the same one the browser was told at the call's end. */
  decide: DecideCall;
  /** For approvals: how interrupts are identified, and when they lapse. */
  approvals: { mode: HistoryMode; expiresInMs: number; secret: string; newId(): string; now(): Promise<Date> };
  /** The run's generated surfaces, when its agent has generated UI: they settle render calls. */
  surfaces?: SurfaceLifecycle;
}

export interface Settled {
  /** Results of server calls and of refused calls, in call order. */
  results: ToolMessage[];
  /** Browser calls with valid arguments: the browser executes them. */
  pending: StepCall[];
  /** Calls waiting for a person's approval; nothing ran for them. */
  interrupts: StoredInterrupt[];
  /** What became of each call, in call order, for the run's record. */
  facts: ToolCallFact[];
}

type Decision = ({ result: string } | { pending: StepCall } | { interrupt: StoredInterrupt }) & { fact: ToolCallFact };
type Settling = ({ result: ToolMessage } | { pending: StepCall } | { interrupt: StoredInterrupt }) & { fact: ToolCallFact };

/**
 * Acts on each tool call of a step as decided (arguments checked against the
 * tool's schema before anything runs): a refused call becomes an error result
 * the model sees; a call that needs approval becomes an interrupt. Server calls
 * run in parallel and each result is sent as soon as it is ready, paired with
 * its call by id.
 */
export async function settleToolCalls(options: SettleOptions): Promise<Settled> {
  const decisions = await Promise.all(
    options.calls.map(async (call): Promise<Settling> => {
      const decision = await decide(call, options);
      if (!("result" in decision)) return decision;
      // Sent the moment it is ready, whatever the other calls are doing.
      return { result: sendToolResult(options, call.toolCallId, decision.result), fact: decision.fact };
    }),
  );
  const settled: Settled = { results: [], pending: [], interrupts: [], facts: [] };
  for (const decision of decisions) {
    settled.facts.push(decision.fact);
    if ("pending" in decision) settled.pending.push(decision.pending);
    else if ("interrupt" in decision) settled.interrupts.push(decision.interrupt);
    else settled.results.push(decision.result);
  }
  return settled;
}

async function decide(call: StepCall, options: SettleOptions): Promise<Decision> {
  const decision = options.decide(call);
  const named = { toolCallId: call.toolCallId, toolName: call.toolName };
  if (decision.kind === "refused") return { result: errorContent(decision.error), fact: { ...named, location: "none", status: "refused" } };
  if (decision.kind === "ask") {
    const askedAt = await options.approvals.now();
    const interrupt = askApproval({
      toolCallId: call.toolCallId,
      tool: decision.tool,
      args: decision.args,
      argumentsText: call.argumentsText,
      user: options.user,
      threadId: options.threadId,
      runId: options.runId,
      ...options.approvals,
      now: () => askedAt,
    });
    return { interrupt, fact: { ...named, location: decision.tool.location, status: "approval", interruptId: interrupt.interrupt.id } };
  }
  const { tool } = decision;
  if (tool.location === "browser") return { pending: call, fact: { ...named, location: "browser", status: "pending" } };
  if (tool.location === "upstream") return { result: grantContent(tool.name, decision.args), fact: { ...named, location: "upstream", status: "result" } };
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const result =
    options.surfaces && tool.name === RENDER_A2UI
      ? await options.surfaces.settle(call.toolCallId, decision.args)
      : await runServerTool(tool.server, decision.args, {
          user: options.user,
          threadId: options.threadId,
          runId: options.runId,
          toolCallId: call.toolCallId,
          signal: options.signal,
          state: options.state,
        });
  const durationMs = Math.round(performance.now() - started);
  return { result, fact: { ...named, location: "server", status: result.startsWith(ERROR_RESULT) ? "error" : "result", startedAt, durationMs } };
}

/** How an error result begins (see `errorContent`). */
const ERROR_RESULT = '{"error":';
