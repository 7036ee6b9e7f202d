import { REQUEST_CONFIRMATION_FUNCTION_CALL_NAME, REQUEST_CREDENTIAL_FUNCTION_CALL_NAME, REQUEST_INPUT_FUNCTION_CALL_NAME, type Event } from "@google/adk";
import { EventType, type BaseEvent, type ToolMessage } from "@ag-ui/core";
import { TetherError } from "../../../protocol/index.ts";
import type { StepCall, StepResult } from "../../agent/index.ts";
import { createStepMessages, toModelError } from "../../run/index.ts";
import { adkFailure } from "./adk-failure.ts";
import type { CapturedResults } from "./captured-results.ts";

type Part = NonNullable<NonNullable<Event["content"]>["parts"]>[number];
type Call = StepCall & { answered?: boolean; kind: "adk" | "browser" | "unknown" };

export interface AdkEventReaderOptions {
  agentName: string;
  /** Names ADK runs itself (the agent's tools) and names the browser runs (the run's browser tools). */
  adkTools: ReadonlySet<string>;
  browserTools: ReadonlySet<string>;
  /** The ids of the calls the model made: one named like ADK's own request is a call to a tool nobody has. */
  modelCalls: ReadonlySet<string>;
  /** Whether the model itself failed: ADK reports its own failures (a transfer, a callback that threw) as a model's. */
  modelFailed?(): boolean;
  captured: CapturedResults;
  /** Calls of earlier runs whose confirmation this step delivers: their results come in this step. */
  confirming: ReadonlySet<string>;
  emit(event: BaseEvent): void;
  /** A state change ADK never yielded (its call's response was dropped with it), to go out as ADK's own do. */
  changeState?(delta: Record<string, unknown>): void;
  newMessageId(): string;
  endMetadata?(call: StepCall): Record<string, unknown> | undefined;
  onIgnored?(what: string, why: string): void;
}

/**
 * ADK's events as the run's AG-UI events and messages. Calls are Tether's under ADK's own ids (made
 * unique before ADK saw them), and a response is paired with the call of its id only, never by name
 * or order. A call ADK held for confirmation, a browser call and a call to a tool nobody has stay
 * open for Tether to settle; every other call ends the step with its result, taken from what the
 * tool returned when ADK dropped it.
 */
export function createAdkEventReader(options: AdkEventReaderOptions) {
  const { emit } = options;
  const messages = createStepMessages(options.newMessageId);
  const calls = new Map<string, Call>();
  const held = new Set<string>();
  const started = performance.now();
  const result: StepResult = { message: undefined, calls: [], aborted: false, timing: { startedAt: new Date(), durationMs: 0 } };
  let firstEventAt: number | undefined;
  let textOpen: string | undefined;
  // The text streamed since ADK's last whole response: the whole one repeats it.
  let streamed = "";

  const ignored = (what: string, why: string) => options.onIgnored?.(what, why);
  const closeText = () => {
    if (textOpen === undefined) return;
    emit({ type: EventType.TEXT_MESSAGE_END, messageId: textOpen });
    textOpen = undefined;
  };
  const say = (delta: string) => {
    if (!delta) return;
    if (textOpen === undefined) {
      textOpen = messages.openAssistant();
      emit({ type: EventType.TEXT_MESSAGE_START, messageId: textOpen, role: "assistant" });
    }
    messages.appendText(delta);
    emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: textOpen, delta });
  };
  const endCall = (call: StepCall) => {
    if (call.ended) return;
    call.ended = true;
    const metadata = options.endMetadata?.(call);
    emit({ type: EventType.TOOL_CALL_END, toolCallId: call.toolCallId, ...(metadata ? { metadata } : {}) });
  };
  const sendResult = (toolCallId: string, response: unknown) => {
    closeText();
    const message: ToolMessage = { id: options.newMessageId(), role: "tool", toolCallId, content: resultContent(response) };
    messages.addResult(message);
    emit({ type: EventType.TOOL_CALL_RESULT, messageId: message.id, toolCallId, content: message.content, role: "tool" });
  };

  const startCall = (part: Part) => {
    const { id, name, args } = part.functionCall!;
    if (!id || !name) return ignored(`call ${name ?? "?"}`, "a call without an id or a name");
    if (calls.has(id)) return ignored(`call ${name}`, `a second call with id ${id}`);
    closeText();
    const kind = options.adkTools.has(name) ? "adk" : options.browserTools.has(name) ? "browser" : "unknown";
    const call: Call = { toolCallId: id, toolName: name, argumentsText: JSON.stringify(args ?? {}), ended: false, kind };
    calls.set(id, call);
    const parentMessageId = messages.openAssistant();
    messages.addCall(call);
    emit({ type: EventType.TOOL_CALL_START, toolCallId: id, toolCallName: name, parentMessageId });
    emit({ type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta: call.argumentsText });
    endCall(call);
  };

  const answer = (part: Part) => {
    const { id, name, response } = part.functionResponse!;
    if (!id) return ignored(`result of ${name ?? "?"}`, "a result without a call id");
    const call = calls.get(id);
    if (!call) {
      // The confirmed call of an earlier run: its result is this step's.
      if (options.confirming.has(id)) return sendResult(id, response);
      return ignored(`result of ${name ?? "?"}`, `a result for call ${id}, which the agent never made`);
    }
    if (call.kind !== "adk") return ignored(`result of ${call.toolName}`, `a result for ${call.toolName}, which is not ADK's to answer`);
    if (call.answered) return ignored(`result of ${call.toolName}`, `a second result for call ${id}`);
    call.answered = true;
    sendResult(id, response);
  };

  /** The calls of a turn ADK ended with a confirmation request: the others' results, which ADK dropped, go out now. */
  const hold = (part: Part) => {
    const original = (part.functionCall!.args as { originalFunctionCall?: { id?: string } } | undefined)?.originalFunctionCall;
    if (original?.id && calls.has(original.id)) held.add(original.id);
    for (const call of calls.values()) if (call.kind === "adk" && !call.answered && !held.has(call.toolCallId)) answerFromCapture(call, false);
  };
  const answerFromCapture = (call: Call, stateLost: boolean) => {
    const captured = options.captured.get(call.toolCallId);
    if (captured?.held) {
      held.add(call.toolCallId);
      return;
    }
    // Beside a confirmation ADK yields the dropped calls' state changes itself; when it threw, they were lost with the responses.
    if (stateLost && captured) options.changeState?.(captured.stateDelta);
    call.answered = true;
    sendResult(call.toolCallId, captured?.response ?? { error: "The agent's framework did not report what this call returned." });
  };

  return {
    /** "stop" when ADK's invocation must end here (an error): nothing after it is the run's. */
    handle(event: Event): "more" | "stop" {
      firstEventAt ??= performance.now();
      if (event.author === "user") return "more";
      if (event.author !== options.agentName) {
        ignored(`event of ${event.author ?? "?"}`, "another agent's (sub-agents are not relayed yet)");
        return "more";
      }
      // ADK puts a model's finish reason in errorCode when the last chunk has no parts: STOP is a normal end.
      if ((event.errorCode && event.errorCode !== "STOP") || (!event.errorCode && event.errorMessage)) return failed(event);
      const parts = event.content?.parts ?? [];
      if (event.partial) {
        for (const part of parts) {
          if (!part.text || part.thought) continue;
          streamed += part.text;
          say(part.text);
        }
        return "more";
      }
      const text = parts.flatMap((part) => (part.text && !part.thought ? [part.text] : [])).join("");
      // What streamed cannot be taken back: a whole response that says otherwise is noted, not sent.
      if (text.startsWith(streamed)) say(text.slice(streamed.length));
      else if (text) ignored("text", "a whole response that differs from what streamed");
      streamed = "";
      for (const part of parts) {
        if (part.functionResponse) answer(part);
        if (!part.functionCall) continue;
        const name = part.functionCall.name;
        const fromAdk = !options.modelCalls.has(part.functionCall.id ?? "");
        if (fromAdk && name === REQUEST_CONFIRMATION_FUNCTION_CALL_NAME) hold(part);
        else if (fromAdk && (name === REQUEST_CREDENTIAL_FUNCTION_CALL_NAME || name === REQUEST_INPUT_FUNCTION_CALL_NAME)) {
          result.error = new TetherError(
            "upstream_error",
            `The ADK agent asked for ${name === REQUEST_INPUT_FUNCTION_CALL_NAME ? "a person's input" : "a credential"}, which Tether does not relay yet.`,
          );
          return "stop";
        } else startCall(part);
      }
      return "more";
    },
    /** What the step produced, once ADK's invocation is over. */
    finish(outcome: { aborted: boolean; error?: TetherError }): StepResult {
      closeText();
      if (outcome.aborted) result.aborted = true;
      else if (outcome.error) result.error ??= outcome.error;
      // A call ADK ran but did not report (it stopped: a cancel, a failure after it) keeps what it returned; only
      // a call that never returned is left for the run to close as not run.
      const ended = result.aborted || result.error !== undefined;
      for (const call of calls.values()) {
        if (call.kind !== "adk" || call.answered || held.has(call.toolCallId)) continue;
        if (!ended || options.captured.get(call.toolCallId)) answerFromCapture(call, true);
      }
      for (const call of calls.values()) endCall(call);
      result.timing.durationMs = Math.round(performance.now() - started);
      if (firstEventAt !== undefined) result.timing.firstTokenMs = Math.round(firstEventAt - started);
      result.produced = messages.all();
      result.message = messages.lastAssistant();
      result.calls = [...calls.values()].filter((call) => !call.answered);
      return result;
    },
  };

  function failed(event: Event): "stop" {
    // A call to a tool nobody has: ADK stops at it. The calls before it ran; Tether refuses it and the agent hears so.
    if ([...calls.values()].some((call) => call.kind === "unknown")) return "stop";
    const limit = /Max number of llm calls limit of (\d+) exceeded/.exec(event.errorMessage ?? "");
    if (limit) result.error = new TetherError("step_limit_exceeded", `The agent made more than ${limit[1]} model calls in one step, so the run was stopped.`);
    else if (options.modelFailed && !options.modelFailed()) result.error = adkFailure(event.errorMessage ?? event.errorCode);
    else result.error = toModelError({ type: event.errorCode, message: event.errorMessage });
    return "stop";
  }
}

/** A tool's response as the thread keeps it; one that is not JSON (a BigInt, a cycle) becomes an error the model can read. */
function resultContent(response: unknown): string {
  try {
    return JSON.stringify(response ?? null);
  } catch (error) {
    return JSON.stringify({ error: `The tool's result could not be sent as JSON (${(error as Error).message.split("\n")[0]}).` });
  }
}
