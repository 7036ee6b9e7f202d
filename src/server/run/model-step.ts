import { EventType, type BaseEvent } from "@ag-ui/core";
import type { LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3Prompt, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { toModelError } from "./model-error.ts";
import { DEFAULT_RETRY, type RetryPolicy, type StepCall, type StepResult } from "../agent/index.ts";

export type { StepCall, StepResult } from "../agent/index.ts";
import { openModelStream } from "./open-model-stream.ts";
import { toTokenUsage } from "./usage.ts";
import type { StatePredictor } from "../state/index.ts";

/**
 * Parts read from an already buffered stream before the event loop is let turn. Only a burst hits it (a
 * provider's parts come a socket read at a time); its events then go out as one write: 512 (some 60 kB of
 * small tokens) measured a tenth faster than 128 in the pipeline benchmark, and is under a millisecond of work.
 */
const YIELD_EVERY = 512;

export interface ModelStepOptions {
  model: LanguageModelV3;
  prompt: LanguageModelV3Prompt;
  tools: LanguageModelV3FunctionTool[];
  signal: AbortSignal;
  emit(event: BaseEvent): void;
  newMessageId(): string;
  /** A stable id for a call that arrives without one, or with one already used in the thread. */
  newToolCallId(): string;
  /** Tool call ids already used in this thread. */
  usedToolCallIds: Set<string>;
  retry?: RetryPolicy;
  /** Metadata for a call's TOOL_CALL_END, decided once its arguments are complete (a browser call awaiting approval). */
  endMetadata?(call: StepCall): Record<string, unknown> | undefined;
  /** Told about each retry, for the run's log. */
  onRetry?(error: unknown, attempt: number, delayMs: number): void;
  /** Follows the calls as they stream, for the agent's predictive state. */
  predictor?: StatePredictor;
}

/**
 * Streams one model call and converts it to AG-UI events as it arrives: text
 * start/content/end, and tool call start/args/end with the arguments passed on
 * as the model produces them. Never throws: a failure is returned with the
 * partial message, so the caller can keep it.
 */
export async function streamModelStep(options: ModelStepOptions): Promise<StepResult> {
  const { emit } = options;
  const messageId = options.newMessageId();
  // The step's text, kept as a few joined segments rather than one string grown a token at a time:
  // a rope of thousands of live pieces is what the garbage collector would spend its time on.
  const segments: string[] = [];
  let recent: string[] = [];
  const textSoFar = () => (segments.length === 0 ? recent.join("") : segments.join("") + recent.join(""));
  let textOpen = false;
  const calls: StepCall[] = [];
  // Provider ids can be missing or reused across steps; parts refer to them, events use ours.
  const byProviderId = new Map<string, StepCall>();
  const startedAt = new Date();
  const started = performance.now();
  let firstPartAt: number | undefined;
  const result: StepResult = { message: undefined, calls, aborted: false, timing: { startedAt, durationMs: 0 } };

  const closeText = () => {
    if (!textOpen) return;
    emit({ type: EventType.TEXT_MESSAGE_END, messageId });
    textOpen = false;
  };
  const startCall = (providerId: string, toolName: string): StepCall => {
    closeText();
    let toolCallId = providerId;
    if (!toolCallId || options.usedToolCallIds.has(toolCallId)) toolCallId = options.newToolCallId();
    options.usedToolCallIds.add(toolCallId);
    const call: StepCall = { toolCallId, toolName, argumentsText: "", ended: false };
    calls.push(call);
    if (providerId) byProviderId.set(providerId, call);
    options.predictor?.started(call);
    emit({ type: EventType.TOOL_CALL_START, toolCallId, toolCallName: toolName, parentMessageId: messageId });
    return call;
  };
  const appendArguments = (call: StepCall, delta: string) => {
    if (!delta || call.ended) return;
    call.argumentsText += delta;
    emit({ type: EventType.TOOL_CALL_ARGS, toolCallId: call.toolCallId, delta });
    options.predictor?.streamed(call);
  };
  const endCall = (call: StepCall) => {
    if (call.ended) return;
    call.ended = true;
    const metadata = options.endMetadata?.(call);
    emit({ type: EventType.TOOL_CALL_END, toolCallId: call.toolCallId, ...(metadata ? { metadata } : {}) });
    options.predictor?.ended(call);
  };
  const handle = (part: LanguageModelV3StreamPart) => {
    switch (part.type) {
      case "text-delta":
        if (!part.delta) return;
        firstPartAt ??= performance.now();
        if (!textOpen) {
          emit({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" });
          textOpen = true;
        }
        recent.push(part.delta);
        if (recent.length === 128) {
          segments.push(recent.join(""));
          recent = [];
        }
        emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: part.delta });
        return;
      case "text-end":
        closeText();
        return;
      case "tool-input-start":
        firstPartAt ??= performance.now();
        startCall(part.id, part.toolName);
        return;
      case "tool-input-delta": {
        const call = byProviderId.get(part.id);
        if (call) appendArguments(call, part.delta);
        return;
      }
      case "tool-call": {
        firstPartAt ??= performance.now();
        // Some providers only send the finished call; others stream it first and confirm it here.
        let call = byProviderId.get(part.toolCallId);
        if (!call || call.ended) call = startCall(part.toolCallId, part.toolName);
        if (call.argumentsText === "") appendArguments(call, part.input);
        endCall(call);
        return;
      }
      case "finish":
        result.usage = toTokenUsage(options.model, part.usage);
        result.finishReason = part.finishReason.unified;
        return;
      case "error":
        throw part.error;
      default:
        return; // reasoning, sources, metadata: not part of the AG-UI conversation yet
    }
  };

  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
  const stop = { requested: false };
  const onAbort = () => {
    stop.requested = true;
  };
  options.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const stream = await openModelStream(
      options.model,
      {
        prompt: options.prompt,
        tools: options.tools.length > 0 ? options.tools : undefined,
        toolChoice: options.tools.length > 0 ? { type: "auto" } : undefined,
        abortSignal: options.signal,
      },
      options.retry ?? DEFAULT_RETRY,
      options.onRetry,
    );
    reader = stream.getReader();
    if (options.signal.aborted || !(await readParts(reader, handle, stop))) throw options.signal.reason;
    closeText();
    // A stream that ends without confirming its calls still ends them: the arguments are final.
    for (const call of calls) endCall(call);
  } catch (error) {
    void reader?.cancel().catch(() => {});
    if (options.signal.aborted) result.aborted = true;
    else result.error = toModelError(error);
    closeText();
  } finally {
    options.signal.removeEventListener("abort", onAbort);
  }

  result.timing.durationMs = Math.round(performance.now() - started);
  if (firstPartAt !== undefined) result.timing.firstTokenMs = Math.round(firstPartAt - started);
  const text = textSoFar();
  if (text || calls.length > 0) {
    result.message = {
      id: messageId,
      role: "assistant",
      ...(text ? { content: text } : {}),
      ...(calls.length > 0
        ? {
            toolCalls: calls.map((call) => ({
              id: call.toolCallId,
              type: "function" as const,
              function: { name: call.toolName, arguments: call.argumentsText },
            })),
          }
        : {}),
    };
  }
  return result;
}

/**
 * Hands the stream's parts to `handle` until it ends (true) or a stop is
 * requested (false). A function of its own that touches only the reader and
 * plain objects: in Node 20 each run's stream and abort signal have a hidden
 * class of their own, and optimized code that reads one is thrown away when
 * the next run's comes, so the loop run for every part is kept away from them.
 */
async function readParts(
  reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart>,
  handle: (part: LanguageModelV3StreamPart) => void,
  stop: { requested: boolean },
): Promise<boolean> {
  for (let parts = 1; ; parts++) {
    if (stop.requested) return false;
    // A stream that is already buffered resolves every read at once; let the event loop turn now
    // and then so the events go out (and into the store) while the rest is converted.
    if (parts % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    const { done, value } = await reader.read();
    if (done) return true;
    handle(value);
  }
}
