import type { ApprovalRefusal, ToolOutcome, ToolOutcomeStatus } from "../../protocol/index.ts";

/** One entry of the tool timeline: what was called, where, and how it ended. */
export interface ToolActivity {
  toolCallId: string;
  toolName: string;
  runId: string;
  location: "browser" | "server";
  /**
   * `calling` while arguments stream; `awaiting` an approval; `running` while the browser performs it; then the outcome,
   * or `done`/`error` for server tools; `rejected` (or `cancelled`) when the approval it waited for was not given.
   */
  status: "calling" | "awaiting" | "running" | ToolOutcomeStatus | "done" | "error" | "rejected";
  stage?: string;
  reason?: string;
  message?: string;
}

/** The call an entry is about. */
export type ActivityCall = Pick<ToolActivity, "toolCallId" | "toolName" | "runId">;

/** A call known from the thread's history, and what the history says of it. */
export interface RestoredActivity {
  call: ActivityCall;
  location: ToolActivity["location"];
  /** Its tool message's content; `undefined` when it has none yet. */
  content: unknown;
  /** A browser call's outcome, from its tool message or this tab's journal. */
  outcome: ToolOutcome | undefined;
}

export interface ToolActivityTimeline {
  /** A call began; shown once, so a replayed START never takes a call back to `calling`. */
  calling(call: ActivityCall, location: ToolActivity["location"]): void;
  running(call: ActivityCall): void;
  awaiting(call: ActivityCall): void;
  /** A browser call closed without running, with the reason in words. */
  cancelled(call: ActivityCall, message: string): void;
  /** A browser call's outcome, with its stage and reason. */
  outcome(call: ActivityCall, outcome: ToolOutcome): void;
  /** A TOOL_CALL_RESULT: `done`, or `error` with the message when the content carries `{ error: { message } }`. */
  result(toolCallId: string, content: unknown, runId?: string): void;
  /** Shows these calls as waiting for a person's approval, if they have not moved on. */
  markAwaiting(toolCallIds: string[]): void;
  /** Rebuilds entries from a thread's history, with one change notice. */
  restore(entries: RestoredActivity[]): void;
  get(toolCallId: string): ToolActivity | undefined;
  list(): ToolActivity[];
}

/**
 * The tool timeline the UI shows: one entry per call, in the order calls
 * began, each moving through its statuses. Every change is announced
 * through `onChange`, with the timeline as it now is.
 */
export function createToolActivityTimeline(onChange: (activities: ToolActivity[]) => void): ToolActivityTimeline {
  const entries = new Map<string, ToolActivity>();
  const list = () => [...entries.values()];
  const put = (activity: ToolActivity) => {
    entries.set(activity.toolCallId, { ...entries.get(activity.toolCallId), ...activity });
  };
  const track = (activity: ToolActivity) => {
    put(activity);
    onChange(list());
  };
  const browser = (call: ActivityCall, status: ToolActivity["status"]): ToolActivity => ({
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    runId: call.runId,
    location: "browser",
    status,
  });
  const ofOutcome = (call: ActivityCall, outcome: ToolOutcome): ToolActivity => ({
    ...browser(call, outcome.status),
    ...(outcome.stage ? { stage: outcome.stage } : {}),
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    ...(outcome.message ? { message: outcome.message } : {}),
  });

  return {
    calling(call, location) {
      if (!entries.has(call.toolCallId)) track({ toolCallId: call.toolCallId, toolName: call.toolName, runId: call.runId, location, status: "calling" });
    },
    running: (call) => track(browser(call, "running")),
    awaiting: (call) => track(browser(call, "awaiting")),
    cancelled: (call, message) => track({ ...browser(call, "cancelled"), message }),
    outcome: (call, outcome) => track(ofOutcome(call, outcome)),
    result(toolCallId, content, runId) {
      const activity = entries.get(toolCallId);
      if (!activity) return;
      track({ ...activity, runId: runId ?? activity.runId, ...readResult(content) });
    },
    markAwaiting(toolCallIds) {
      for (const toolCallId of toolCallIds) {
        const activity = entries.get(toolCallId);
        if (activity && (activity.status === "calling" || activity.status === "awaiting")) track({ ...activity, status: "awaiting" });
      }
    },
    restore(restored) {
      for (const { call, location, content, outcome } of restored) {
        if (outcome) {
          put(ofOutcome(call, outcome));
          continue;
        }
        entries.set(call.toolCallId, {
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          runId: call.runId,
          location,
          ...(content === undefined ? { status: "calling" } : readResult(content)),
        });
      }
      onChange(list());
    },
    get: (toolCallId) => entries.get(toolCallId),
    list,
  };
}

/**
 * How a result ended its call: `error` with the message (Tether's `{ error: { message } }`, or the
 * `{ error: "…" }` ADK and other agents give), `rejected` or
 * `cancelled` when it is the server's word that an approval was not given (never shown as done),
 * else `done`. As text or as an object.
 */
function readResult(content: unknown): Pick<ToolActivity, "status" | "message"> {
  let value: unknown;
  try {
    value = typeof content === "string" ? JSON.parse(content) : content;
  } catch {
    return { status: "done" };
  }
  const error = (value as { error?: { message?: unknown } | string } | null)?.error;
  if (typeof error === "string") return { status: "error", message: error };
  if (typeof error?.message === "string") return { status: "error", message: error.message };
  const refusal = value as Partial<ApprovalRefusal> | null;
  if ((refusal?.status === "rejected" || refusal?.status === "cancelled") && typeof refusal.message === "string") {
    return { status: refusal.status, message: refusal.message };
  }
  return { status: "done" };
}
