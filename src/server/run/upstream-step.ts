import {
  EventType,
  aggregateTokenUsage,
  type TokenUsage,
  type BaseEvent,
  type Message,
  type RunAgentInput,
  type RunFinishedEvent,
  type ToolMessage,
} from "@ag-ui/core";
import { TetherError } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import { upstreamFailure, type UpstreamAgent } from "../upstream/index.ts";
import type { StepCall, StepResult } from "./model-step.ts";
import { createStepMessages } from "./step-messages.ts";
import { readUpstreamRun } from "./read-upstream-run.ts";
import { applyUpstreamState } from "./upstream-state.ts";
import type { RunState } from "../state/index.ts";

export interface UpstreamStepOptions {
  upstream: UpstreamAgent;
  /** Who the run is for: the upstream may be told (its endpoint's `headers` as a function of the user). */
  user: TetherUser;
  input: RunAgentInput;
  /** The run's shared state: the upstream's state events change it (checked), and it streams them. */
  state: RunState;
  signal: AbortSignal;
  emit(event: BaseEvent): void;
  newMessageId(): string;
  /** A stable id for a call whose id the thread already used (or that came with none). */
  newToolCallId(): string;
  usedToolCallIds: Set<string>;
  /**
   * The tools Tether answers: the agent's own server tools and the allow-listed browser tools. The
   * upstream may answer calls to its own tools, never to these: their result is the browser's or Tether's.
   */
  tetherTools: ReadonlySet<string>;
  /** Metadata for a call's TOOL_CALL_END (a browser call awaiting approval). */
  endMetadata?(call: StepCall): Record<string, unknown> | undefined;
  /** Told of each event Tether did not pass on, and why, for the run's log. */
  onIgnored?(event: BaseEvent, why: string): void;
  /** Told of each event as the upstream sent it, before it is read as 1.0's, for the run's record. */
  onReceived?(event: BaseEvent): void;
}

/**
 * One upstream run as one step of Tether's run: the upstream's text and tool
 * calls become the run's own events (Tether's message ids, call ids kept
 * unless the thread used them), its own tools' results are kept in order, and
 * the calls it leaves unanswered are Tether's to settle (refused, run here, or
 * sent to the browser). Never throws: a failure is returned with what came before.
 */
export async function streamUpstreamStep(options: UpstreamStepOptions): Promise<StepResult> {
  const { emit, upstream } = options;
  const messages = createStepMessages(options.newMessageId);
  const calls = new Map<string, StepCall & { answered?: boolean }>();
  const startedAt = new Date();
  const started = performance.now();
  let firstEventAt: number | undefined;
  let textOpen: string | undefined;
  const result: StepResult = { message: undefined, calls: [], aborted: false, timing: { startedAt, durationMs: 0 } };

  const closeText = () => {
    if (textOpen === undefined) return;
    emit({ type: EventType.TEXT_MESSAGE_END, messageId: textOpen });
    textOpen = undefined;
  };
  const endCall = (call: StepCall) => {
    if (call.ended) return;
    call.ended = true;
    const metadata = options.endMetadata?.(call);
    emit({ type: EventType.TOOL_CALL_END, toolCallId: call.toolCallId, ...(metadata ? { metadata } : {}) });
  };

  const handle = (event: BaseEvent): "more" | "done" => {
    firstEventAt ??= performance.now();
    switch (event.type) {
      case EventType.RUN_STARTED: {
        // Its ids are never passed on (the run has Tether's), so one for another thread is noted, not refused: some agents make up their own.
        const { threadId } = event as BaseEvent & { threadId: string };
        return threadId === options.input.threadId ? "more" : ignored(event, `it names thread ${threadId}, not ${options.input.threadId}`);
      }
      case EventType.TEXT_MESSAGE_START:
      case EventType.TEXT_MESSAGE_CONTENT: {
        const delta = (event as { delta?: unknown }).delta;
        if (event.type === EventType.TEXT_MESSAGE_CONTENT && (typeof delta !== "string" || delta === "")) return "more";
        if (textOpen === undefined) {
          textOpen = messages.openAssistant();
          emit({ type: EventType.TEXT_MESSAGE_START, messageId: textOpen, role: "assistant" });
        }
        if (typeof delta === "string" && delta !== "") {
          messages.appendText(delta as string);
          emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: textOpen, delta });
        }
        return "more";
      }
      case EventType.TEXT_MESSAGE_END:
        closeText();
        return "more";
      case EventType.TOOL_CALL_START: {
        const { toolCallId: upstreamId, toolCallName } = event as { toolCallId?: unknown; toolCallName?: unknown } & BaseEvent;
        if (typeof upstreamId !== "string" || typeof toolCallName !== "string" || !toolCallName) return ignored(event, "a tool call without an id or a name");
        if (calls.has(upstreamId)) return ignored(event, `a second start of tool call ${upstreamId}`);
        closeText();
        const parentMessageId = messages.openAssistant();
        let toolCallId = upstreamId;
        if (!toolCallId || options.usedToolCallIds.has(toolCallId)) toolCallId = options.newToolCallId();
        options.usedToolCallIds.add(toolCallId);
        const call: StepCall = { toolCallId, toolName: toolCallName, argumentsText: "", ended: false };
        calls.set(upstreamId, call);
        messages.addCall(call);
        emit({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName, parentMessageId });
        return "more";
      }
      case EventType.TOOL_CALL_ARGS: {
        const { toolCallId, delta } = event as { toolCallId?: unknown; delta?: unknown } & BaseEvent;
        const call = typeof toolCallId === "string" ? calls.get(toolCallId) : undefined;
        if (!call || call.ended) return ignored(event, "arguments for a tool call that is not open");
        if (typeof delta !== "string" || delta === "") return "more";
        call.argumentsText += delta;
        emit({ type: EventType.TOOL_CALL_ARGS, toolCallId: call.toolCallId, delta });
        return "more";
      }
      case EventType.TOOL_CALL_END: {
        const call = calls.get((event as { toolCallId?: string }).toolCallId ?? "");
        if (!call || call.ended) return ignored(event, "the end of a tool call that is not open");
        endCall(call);
        return "more";
      }
      case EventType.TOOL_CALL_RESULT:
        return answer(event);
      case EventType.RUN_FINISHED: {
        const finished = event as RunFinishedEvent;
        if (finished.outcome?.type === "interrupt") {
          result.error = new TetherError("upstream_error", "The upstream agent asked for a person's answer (an interrupt), which Tether does not relay yet.");
          return "done";
        }
        const usage = oneUsage(finished.usage ?? []);
        if (usage) result.usage = usage;
        result.finishReason = "stop";
        return "done";
      }
      case EventType.RUN_ERROR:
        result.error = upstreamFailure("upstream_error", "failed", (event as { message?: unknown }).message);
        return "done";
      case EventType.STATE_SNAPSHOT:
      case EventType.STATE_DELTA: {
        const refused = applyUpstreamState(event, options.state);
        return refused === undefined ? "more" : ignored(event, refused);
      }
      default:
        // Steps, reasoning, activity, custom and raw events are the upstream's own, not the conversation.
        return ignored(event, "not part of the conversation");
    }
  };

  const ignored = (event: BaseEvent, why: string): "more" => {
    options.onIgnored?.(event, why);
    return "more";
  };

  // The upstream answered a call to one of its own tools: kept after the call's message, passed on as it is.
  const answer = (event: BaseEvent): "more" => {
    const { toolCallId, content } = event as { toolCallId?: unknown; content?: unknown } & BaseEvent;
    const call = typeof toolCallId === "string" ? calls.get(toolCallId) : undefined;
    if (!call) return ignored(event, "a result for a tool call the upstream never started");
    if (options.tetherTools.has(call.toolName)) return ignored(event, `a result for ${call.toolName}, which is the browser's or Tether's to answer`);
    if (call.answered) return ignored(event, `a second result for tool call ${call.toolCallId}`);
    closeText();
    endCall(call);
    call.answered = true;
    const message: ToolMessage = {
      id: options.newMessageId(),
      role: "tool",
      toolCallId: call.toolCallId,
      content: typeof content === "string" ? content : JSON.stringify(content ?? null),
    };
    messages.addResult(message);
    emit({ type: EventType.TOOL_CALL_RESULT, messageId: message.id, toolCallId: call.toolCallId, content: message.content, role: "tool" });
    return "more";
  };

  const outcome = await readUpstreamRun(upstream, options, handle);
  if (outcome.kind === "aborted") result.aborted = true;
  else if (outcome.kind === "failed") result.error ??= outcome.error;
  closeText();
  // A run that finished still ends the calls it left open: their arguments are final.
  if (!result.error && !result.aborted) for (const call of calls.values()) endCall(call);

  result.timing.durationMs = Math.round(performance.now() - started);
  if (firstEventAt !== undefined) result.timing.firstTokenMs = Math.round(firstEventAt - started);
  const produced: Message[] = messages.all();
  result.produced = produced;
  result.message = messages.lastAssistant();
  result.calls = [...calls.values()].filter((call) => !call.answered);
  return result;
}

/** The upstream's usage entries (one per model it called) as the one entry a step has: summed when it used several models. */
function oneUsage(entries: TokenUsage[]): TokenUsage | undefined {
  const merged = aggregateTokenUsage(entries);
  if (merged.length <= 1) return merged[0];
  const sum: TokenUsage = { provider: "ag-ui", model: merged.map((entry) => entry.model).join(", ") };
  for (const key of ["inputTokens", "outputTokens", "totalTokens", "reasoningTokens", "cachedInputTokens", "cacheWriteInputTokens"] as const) {
    const counts = merged.map((entry) => entry[key]).filter((count): count is number => typeof count === "number");
    if (counts.length > 0) sum[key] = counts.reduce((a, b) => a + b, 0);
  }
  return sum;
}
