import { EventType, type BaseEvent } from "@ag-ui/core";

/** One tool call, as its events have described it so far. */
export interface TrackedCall {
  toolCallId: string;
  toolName: string;
  runId: string;
  /** The TOOL_CALL_ARGS deltas joined; only read once the call has ended. */
  args: string;
  ended: boolean;
  /** Its END arrived after its run had finished, so it must never run. */
  late?: boolean;
  /** The server holds it for a person's approval; it runs once the approval comes (as a pending call). */
  awaiting?: boolean;
  /**
   * The server said it must never run, and why: `cancelled` (a cancel cut its arguments off) or
   * `not_allowed` (a tool this run does not offer, which the server refuses).
   */
  closedByServer?: string;
  /** The server answered it itself (a TOOL_CALL_RESULT came). */
  answered?: boolean;
}

/** What one event did to the calls: a call began, a call's arguments are complete, or a call got a result. */
export type CallChange =
  | { kind: "started"; call: TrackedCall }
  | { kind: "ended"; call: TrackedCall }
  | { kind: "answered"; toolCallId: string; content: unknown; call: TrackedCall | undefined };

export interface ToolCallTracker {
  /**
   * Feeds one event of `runId`. Repeats change nothing: a second START or END
   * for a call, ARGS after its END, or an END for a call never started.
   */
  observe(event: BaseEvent, runId: string): CallChange | undefined;
  get(toolCallId: string): TrackedCall | undefined;
  /** The calls of one run, in the order they started. */
  callsOf(runId: string): TrackedCall[];
  /** A call known from the thread's history: complete, with its arguments. */
  restore(call: Pick<TrackedCall, "toolCallId" | "toolName" | "runId" | "args">): void;
}

interface CallEvent {
  toolCallId: string;
  toolCallName?: string;
  delta?: string;
  content?: unknown;
  metadata?: { tether?: { awaitsApproval?: boolean; doNotRun?: string } };
}

/**
 * Accumulates TOOL_CALL_START / ARGS / END per call id (parallel calls
 * interleave; they pair by id, never by order) and knows which runs have
 * finished, so an END that arrives after its run ended is marked late. It
 * decides nothing about running a call: that is the runner's to ask.
 */
export function createToolCallTracker(): ToolCallTracker {
  const calls = new Map<string, TrackedCall>();
  const finishedRuns = new Set<string>();

  return {
    observe(event, runId) {
      switch (event.type) {
        case EventType.RUN_STARTED:
          finishedRuns.delete(runId);
          return undefined;
        case EventType.RUN_FINISHED:
        case EventType.RUN_ERROR:
          finishedRuns.add(runId);
          return undefined;
        case EventType.TOOL_CALL_START: {
          const { toolCallId, toolCallName = "" } = event as unknown as CallEvent;
          if (calls.has(toolCallId)) return undefined;
          const call: TrackedCall = { toolCallId, toolName: toolCallName, runId, args: "", ended: false };
          calls.set(toolCallId, call);
          return { kind: "started", call };
        }
        case EventType.TOOL_CALL_ARGS: {
          const { toolCallId, delta = "" } = event as unknown as CallEvent;
          const call = calls.get(toolCallId);
          if (call && !call.ended) call.args += delta;
          return undefined;
        }
        case EventType.TOOL_CALL_END: {
          const { toolCallId, metadata } = event as unknown as CallEvent;
          const call = calls.get(toolCallId);
          if (!call || call.ended) return undefined;
          call.ended = true;
          call.late = finishedRuns.has(call.runId);
          call.awaiting = metadata?.tether?.awaitsApproval === true;
          if (metadata?.tether?.doNotRun) call.closedByServer = metadata.tether.doNotRun;
          return { kind: "ended", call };
        }
        case EventType.TOOL_CALL_RESULT: {
          const { toolCallId, content } = event as unknown as CallEvent;
          const call = calls.get(toolCallId);
          if (call) call.answered = true;
          return { kind: "answered", toolCallId, content, call };
        }
        default:
          return undefined;
      }
    },
    get: (toolCallId) => calls.get(toolCallId),
    callsOf: (runId) => [...calls.values()].filter((call) => call.runId === runId),
    restore(call) {
      calls.set(call.toolCallId, { ...call, ended: true });
    },
  };
}
