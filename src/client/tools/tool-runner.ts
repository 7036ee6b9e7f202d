import type { BaseEvent, Message } from "@ag-ui/core";
import { parseToolOutcome, type BrowserToolKind, type ToolOutcome } from "../../protocol/index.ts";
import type { CallJournal } from "./call-journal.ts";
import { decideSettlement } from "./decide-settlement.ts";
import { createToolActivityTimeline, type RestoredActivity, type ToolActivity } from "./tool-activity-timeline.ts";
import { createToolCallExecutor, type CallToExecute } from "./tool-call-executor.ts";
import { createToolCallTracker } from "./tool-call-tracker.ts";
import type { ToolRegistry } from "./tool-registry.ts";

/** A browser call's final outcome, ready to go back to the server. */
export interface SettledCall {
  toolCallId: string;
  toolName: string;
  kind: BrowserToolKind;
  outcome: ToolOutcome;
}

export interface ToolRunner {
  /**
   * Feeds one event of a run. Browser calls execute at their TOOL_CALL_END,
   * once per call id, and only when `live`: replayed events (a reconnect, a
   * second window) restore the timeline and never act.
   */
  observe(event: BaseEvent, context: { runId: string; live: boolean }): void;
  /** The outcomes of these calls, waiting for executions in flight; calls this page never ran are settled as the journal says. */
  settle(toolCallIds: string[]): Promise<SettledCall[]>;
  /**
   * Browser calls of a run that this page performed and the server has no
   * result for: after a run that ended otherwise than with pending calls (an
   * approval question, an error, a cancel), their outcomes are still owed.
   */
  performedWithoutResult(runId: string): string[];
  /** Calls of a run that got no TOOL_CALL_RESULT, in the order they started: a plain AG-UI server's pending calls. */
  unanswered(runId: string): string[];
  /** Shows these calls as waiting for a person's approval (the run ended with interrupts about them). */
  markAwaiting(toolCallIds: string[]): void;
  /** Rebuilds the timeline from a thread's history. */
  restore(messages: Message[], runIdOf?: (message: Message) => string | undefined): void;
  activities(): ToolActivity[];
}

export interface ToolRunnerOptions {
  registry: ToolRegistry;
  journal: CallJournal;
  threadId: string;
  mode(): string;
  /** The timeline changed: here it is as it now is. */
  onChange(activities: ToolActivity[]): void;
  /** Called just before a browser tool's code runs, synchronously (instrumentation). */
  onDispatch?(call: CallToExecute): void;
}

/** What the timeline says of a call the server closed, by the server's reason (`doNotRun`; the agent failing mid-call says its own code). */
const NOT_RUN: Record<string, string> = {
  cancelled: "Cancelled before its arguments were complete",
  not_allowed: "Not allowed in this conversation",
  invalid_arguments: "Its arguments were refused",
  upstream: "The agent's own tool, not this page's",
};

/**
 * A session's browser-tool runner, composed of one part per job: the
 * tracker accumulates each call's events, the executor runs a call at most
 * once (with the journal across reloads), the timeline is what the UI shows,
 * and `decideSettlement` answers for calls this page did not run.
 */
export function createToolRunner(options: ToolRunnerOptions): ToolRunner {
  const { registry, journal } = options;
  const tracker = createToolCallTracker();
  const timeline = createToolActivityTimeline(options.onChange);
  const executor = createToolCallExecutor({
    registry,
    journal,
    threadId: options.threadId,
    mode: options.mode,
    onRunning: (call) => timeline.running(call),
    onOutcome: (call, outcome) => timeline.outcome(call, outcome),
    ...(options.onDispatch ? { onDispatch: options.onDispatch } : {}),
  });
  /** Ran, or is running, in this page or (by the journal) in an earlier load of this tab. */
  const performed = (toolCallId: string) => !!executor.outcomeOf(toolCallId) || !!journal.get(toolCallId);

  return {
    observe(event, { runId, live }) {
      const change = tracker.observe(event, runId);
      if (!change) return;
      if (change.kind === "started") {
        timeline.calling(change.call, registry.get(change.call.toolName) ? "browser" : "server");
        return;
      }
      if (change.kind === "answered") {
        const activity = timeline.get(change.toolCallId);
        // A browser call's timeline shows what the browser did, not the tool message echoed back.
        if (activity?.location === "browser" && performed(change.toolCallId)) return;
        timeline.result(change.toolCallId, change.content, change.call?.runId);
        return;
      }
      const { call } = change;
      const handler = registry.get(call.toolName);
      if (call.closedByServer) {
        const why = NOT_RUN[call.closedByServer] ?? "Stopped before its arguments were complete";
        if (handler) timeline.cancelled(call, `${why}; it did not run.`);
        return;
      }
      if (call.awaiting) return timeline.awaiting(call);
      // Late events after their run ended have no effect, nor do replays; the executor refuses calls this tab already ran.
      if (live && !call.late && handler) void executor.execute(call, handler);
    },

    async settle(toolCallIds) {
      return Promise.all(
        toolCallIds.map(async (toolCallId): Promise<SettledCall> => {
          const call = tracker.get(toolCallId);
          const entry = journal.get(toolCallId);
          const toolName = call?.toolName ?? entry?.toolName ?? "unknown";
          const handler = registry.get(toolName);
          const settled = (outcome: ToolOutcome): SettledCall => ({ toolCallId, toolName, kind: handler?.spec.kind ?? "follow-up", outcome });
          const running = executor.outcomeOf(toolCallId);
          if (running) return settled(await running);
          const settlement = decideSettlement({ toolName, call, entry, handler });
          if (settlement.kind === "journaled") return settled(settlement.outcome);
          if (settlement.kind === "execute") {
            const execution = executor.execute(settlement.call, settlement.handler, { again: settlement.again });
            if (execution) return settled(await execution);
          }
          const outcome = settlement.kind === "owed" ? settlement.outcome : { status: "unknown" as const, message: `${toolName} could not be run again.` };
          if (entry?.state !== "finished") {
            journal.finish(toolCallId, outcome);
            timeline.outcome({ toolCallId, toolName, runId: call?.runId ?? entry?.runId ?? "" }, outcome);
          }
          return settled(outcome);
        }),
      );
    },

    performedWithoutResult: (runId) =>
      tracker
        .callsOf(runId)
        .filter((call) => !call.answered && executor.outcomeOf(call.toolCallId) !== undefined)
        .map((call) => call.toolCallId),

    unanswered: (runId) =>
      tracker
        .callsOf(runId)
        .filter((call) => !call.answered)
        .map((call) => call.toolCallId),

    markAwaiting: (toolCallIds) => timeline.markAwaiting(toolCallIds),

    restore(messages, runIdOf = () => undefined) {
      const results = new Map<string, unknown>();
      for (const message of messages) if (message.role === "tool") results.set(message.toolCallId, message.content);
      const restored: RestoredActivity[] = [];
      for (const message of messages) {
        if (message.role !== "assistant") continue;
        for (const toolCall of message.toolCalls ?? []) {
          const call = { toolCallId: toolCall.id, toolName: toolCall.function.name, runId: runIdOf(message) ?? "", args: toolCall.function.arguments };
          tracker.restore(call);
          const browser = !!registry.get(call.toolName) || !!journal.get(call.toolCallId);
          const content = results.get(call.toolCallId);
          const outcome = browser ? (parseToolOutcome(content) ?? journal.get(call.toolCallId)?.outcome) : undefined;
          restored.push({ call, location: browser ? "browser" : "server", content, outcome });
        }
      }
      timeline.restore(restored);
    },

    activities: () => timeline.list(),
  };
}
