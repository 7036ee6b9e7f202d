import { EventType, type BaseEvent, type Message } from "@ag-ui/core";
import { ToolOutcomeSchema, parseToolOutcome, type BrowserToolKind, type ToolOutcome, type ToolOutcomeStage, type ToolOutcomeStatus } from "../protocol/index.ts";
import type { CallJournal } from "./call-journal.ts";
import { parseArguments, validatorFor } from "./check-arguments.ts";
import { toolCallEndArrivals } from "./event-stream.ts";
import type { BrowserToolHandler, PanelMode, ToolRegistry } from "./tool-registry.ts";

/** One entry of the tool timeline: what was called, where, and how it ended. */
export interface ToolActivity {
  toolCallId: string;
  toolName: string;
  runId: string;
  location: "browser" | "server";
  /** `calling` while arguments stream; `awaiting` an approval; `running` while the browser performs it; then the outcome, or `done`/`error` for server tools. */
  status: "calling" | "awaiting" | "running" | ToolOutcomeStatus | "done" | "error";
  stage?: ToolOutcomeStage;
  reason?: string;
  message?: string;
}

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
  /** Shows these calls as waiting for a person's approval (the run ended with interrupts about them). */
  markAwaiting(toolCallIds: string[]): void;
  /** Rebuilds the timeline from a thread's history. */
  restore(messages: Message[], runIdOf?: (message: Message) => string | undefined): void;
  activities(): ToolActivity[];
}

interface Call {
  toolCallId: string;
  toolName: string;
  runId: string;
  args: string;
  ended: boolean;
  /** Its END arrived after its run had finished, so it never ran. */
  late?: boolean;
  /** The server holds it for a person's approval; it runs once the approval comes (as a pending call). */
  awaiting?: boolean;
  /** The server answered it itself (a TOOL_CALL_RESULT came). */
  answered?: boolean;
}

const MODE_NAMES: Record<PanelMode, string> = { side: "in the side panel", fullscreen: "full screen", modal: "as a window over the screen" };

export function createToolRunner(options: {
  registry: ToolRegistry;
  journal: CallJournal;
  threadId: string;
  mode(): PanelMode;
  onChange(): void;
}): ToolRunner {
  const { registry, journal } = options;
  const calls = new Map<string, Call>();
  const finishedRuns = new Set<string>();
  const executions = new Map<string, Promise<ToolOutcome>>();
  const timeline = new Map<string, ToolActivity>();
  // Compiling a schema takes tens of milliseconds; do it when a tool registers, not when its call arrives.
  const compileAll = () => {
    for (const handler of registry.list()) validatorFor(handler);
  };
  compileAll();
  registry.subscribe(compileAll);

  const track = (activity: ToolActivity) => {
    timeline.set(activity.toolCallId, { ...timeline.get(activity.toolCallId), ...activity });
    options.onChange();
  };
  const showOutcome = (call: Pick<Call, "toolCallId" | "toolName" | "runId">, outcome: ToolOutcome) =>
    track({
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      runId: call.runId,
      location: "browser",
      status: outcome.status,
      ...(outcome.stage ? { stage: outcome.stage } : {}),
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      ...(outcome.message ? { message: outcome.message } : {}),
    });

  const execute = (call: Call, handler: BrowserToolHandler): Promise<ToolOutcome> => {
    journal.start(call.toolCallId, { runId: call.runId, toolName: call.toolName });
    track({ toolCallId: call.toolCallId, toolName: call.toolName, runId: call.runId, location: "browser", status: "running" });
    const run = async (): Promise<ToolOutcome> => {
      const mode = options.mode();
      // Blocked before the arguments are even read: the mode alone decides.
      if (handler.modes && !handler.modes.includes(mode)) {
        return { status: "blocked", reason: "blocked_by_mode", message: `The assistant is open ${MODE_NAMES[mode]}, so ${call.toolName} cannot act.` };
      }
      const args = parseArguments(call.args, handler);
      if (!args.ok) return { status: "failed", reason: "invalid_arguments", message: args.message };
      const arrived = toolCallEndArrivals.get(call.toolCallId);
      toolCallEndArrivals.delete(call.toolCallId);
      if (arrived !== undefined && typeof performance.measure === "function") {
        performance.measure("tether:tool-dispatch", { start: arrived, detail: { toolCallId: call.toolCallId, toolName: call.toolName } });
      }
      try {
        const outcome = await handler.execute(args.value, { toolCallId: call.toolCallId, runId: call.runId, threadId: options.threadId, mode });
        const parsed = ToolOutcomeSchema.safeParse(outcome);
        return parsed.success ? parsed.data : { status: "unknown", message: `${call.toolName} returned something that is not an outcome.` };
      } catch (error) {
        return { status: "failed", reason: "executor_failed", message: `${call.toolName} failed: ${(error as Error)?.message ?? String(error)}` };
      }
    };
    const pending = run().then((outcome) => {
      journal.finish(call.toolCallId, outcome);
      showOutcome(call, outcome);
      return outcome;
    });
    executions.set(call.toolCallId, pending);
    return pending;
  };

  return {
    observe(event, { runId, live }) {
      switch (event.type) {
        case EventType.RUN_STARTED:
          finishedRuns.delete(runId);
          return;
        case EventType.RUN_FINISHED:
        case EventType.RUN_ERROR:
          finishedRuns.add(runId);
          return;
        case EventType.TOOL_CALL_START: {
          const { toolCallId, toolCallName } = event as unknown as { toolCallId: string; toolCallName: string };
          if (calls.has(toolCallId)) return;
          calls.set(toolCallId, { toolCallId, toolName: toolCallName, runId, args: "", ended: false });
          if (!timeline.has(toolCallId)) {
            track({ toolCallId, toolName: toolCallName, runId, location: registry.get(toolCallName) ? "browser" : "server", status: "calling" });
          }
          return;
        }
        case EventType.TOOL_CALL_ARGS: {
          const call = calls.get((event as unknown as { toolCallId: string }).toolCallId);
          if (call && !call.ended) call.args += (event as unknown as { delta: string }).delta;
          return;
        }
        case EventType.TOOL_CALL_END: {
          const call = calls.get((event as unknown as { toolCallId: string }).toolCallId);
          if (!call || call.ended) return; // a duplicate END, or an END for a call never started
          call.ended = true;
          call.late = finishedRuns.has(call.runId);
          const marks = (event as { metadata?: { tether?: { awaitsApproval?: boolean; doNotRun?: string } } }).metadata?.tether;
          call.awaiting = marks?.awaitsApproval === true;
          if (marks?.doNotRun) {
            // Closed by the server (a cancel cut its arguments off): it must not run here.
            if (registry.get(call.toolName)) {
              track({ toolCallId: call.toolCallId, toolName: call.toolName, runId: call.runId, location: "browser", status: "cancelled", message: "Cancelled before its arguments were complete; it did not run." });
            }
            return;
          }
          if (call.awaiting) {
            track({ toolCallId: call.toolCallId, toolName: call.toolName, runId: call.runId, location: "browser", status: "awaiting" });
            return;
          }
          // Late events after their run ended have no effect, nor do replays, nor calls this page already ran.
          if (!live || call.late || executions.has(call.toolCallId) || journal.get(call.toolCallId)) return;
          const handler = registry.get(call.toolName);
          if (handler) void execute(call, handler);
          return;
        }
        case EventType.TOOL_CALL_RESULT: {
          const { toolCallId, content } = event as unknown as { toolCallId: string; content: unknown };
          const call = calls.get(toolCallId);
          if (call) call.answered = true;
          const activity = timeline.get(toolCallId);
          if (!activity || activity.location === "browser" && (executions.has(toolCallId) || journal.get(toolCallId))) return;
          const error = readError(content);
          track({
            ...activity,
            runId: call?.runId ?? activity.runId,
            status: error ? "error" : "done",
            ...(error ? { message: error } : {}),
          });
          return;
        }
        default:
          return;
      }
    },

    async settle(toolCallIds) {
      return Promise.all(
        toolCallIds.map(async (toolCallId): Promise<SettledCall> => {
          const call = calls.get(toolCallId);
          const entry = journal.get(toolCallId);
          const toolName = call?.toolName ?? entry?.toolName ?? "unknown";
          const handler = registry.get(toolName);
          const kind = handler?.spec.kind ?? "follow-up";
          const settled = (outcome: ToolOutcome): SettledCall => {
            if (!entry || entry.state !== "finished") {
              journal.finish(toolCallId, outcome);
              showOutcome({ toolCallId, toolName, runId: call?.runId ?? entry?.runId ?? "" }, outcome);
            }
            return { toolCallId, toolName, kind, outcome };
          };
          const running = executions.get(toolCallId);
          if (running) return { toolCallId, toolName, kind, outcome: await running };
          if (entry?.state === "finished" && entry.outcome) return settled(entry.outcome);
          if (!handler) return settled({ status: "failed", reason: "executor_failed", message: `This page has no executor for ${toolName}.` });
          if (call?.late) return settled({ status: "cancelled", message: `The call to ${toolName} arrived after its run had ended, so it did not run.` });
          // Held for approval, and now pending: the approval came.
          if (call?.awaiting && entry === undefined) return { toolCallId, toolName, kind, outcome: await execute(call, handler) };
          if (call?.ended && handler.onReload === "run-again") return { toolCallId, toolName, kind, outcome: await execute(call, handler) };
          // The page was reloaded: a call it started may or may not have happened; one it never started did not.
          return settled(
            entry?.state === "started"
              ? { status: "unknown", reason: "page_reloaded", message: `The page was reloaded while ${toolName} was running; it may or may not have happened.` }
              : { status: "cancelled", reason: "page_reloaded", message: `The page was reloaded before ${toolName} could run; it did not happen.` },
          );
        }),
      );
    },

    performedWithoutResult(runId) {
      return [...calls.values()].filter((call) => call.runId === runId && !call.answered && executions.has(call.toolCallId)).map((call) => call.toolCallId);
    },

    markAwaiting(toolCallIds) {
      for (const toolCallId of toolCallIds) {
        const activity = timeline.get(toolCallId);
        if (activity && (activity.status === "calling" || activity.status === "awaiting")) track({ ...activity, status: "awaiting" });
      }
    },

    restore(messages, runIdOf = () => undefined) {
      const results = new Map<string, unknown>();
      for (const message of messages) if (message.role === "tool") results.set(message.toolCallId, message.content);
      for (const message of messages) {
        if (message.role !== "assistant") continue;
        for (const toolCall of message.toolCalls ?? []) {
          const runId = runIdOf(message) ?? "";
          const browser = !!registry.get(toolCall.function.name) || !!journal.get(toolCall.id);
          calls.set(toolCall.id, { toolCallId: toolCall.id, toolName: toolCall.function.name, runId, args: toolCall.function.arguments, ended: true });
          const content = results.get(toolCall.id);
          const outcome = browser ? parseToolOutcome(content) ?? journal.get(toolCall.id)?.outcome : undefined;
          if (outcome) {
            showOutcome({ toolCallId: toolCall.id, toolName: toolCall.function.name, runId }, outcome);
            continue;
          }
          const error = content === undefined ? undefined : readError(content);
          timeline.set(toolCall.id, {
            toolCallId: toolCall.id,
            toolName: toolCall.function.name,
            runId,
            location: browser ? "browser" : "server",
            status: content === undefined ? "calling" : error ? "error" : "done",
            ...(error ? { message: error } : {}),
          });
        }
      }
      options.onChange();
    },

    activities: () => [...timeline.values()],
  };
}

function readError(content: unknown): string | undefined {
  try {
    const value = typeof content === "string" ? JSON.parse(content) : content;
    const error = (value as { error?: { message?: unknown } } | null)?.error;
    return typeof error?.message === "string" ? error.message : undefined;
  } catch {
    return undefined;
  }
}
