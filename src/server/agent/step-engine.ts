import type { AssistantMessage, BaseEvent, Context, Message, ResumeEntry, TokenUsage } from "@ag-ui/core";
import type { TetherError } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { StoredInterrupt } from "../store/index.ts";
import type { RunTool, ToolCall } from "../tools/index.ts";
import type { RunState } from "../state/index.ts";

/** One tool call as the model produced it in a step. */
export interface StepCall extends ToolCall {
  /** TOOL_CALL_END was sent: the arguments are complete. */
  ended: boolean;
}

export interface StepResult {
  /** What the model said in this step, text and tool calls; undefined when it said nothing. */
  message: AssistantMessage | undefined;
  /**
   * An upstream agent's step: every message it produced, in order (assistant messages, and the results
   * of its own tools after their calls); `message` is then the last assistant message among them.
   */
  produced?: Message[];
  calls: StepCall[];
  usage?: TokenUsage;
  finishReason?: string;
  /** The model failed mid-stream; `message` holds what it produced before. */
  error?: TetherError;
  aborted: boolean;
  /** When the call was made and how long it took, for the run's record. */
  timing: StepTiming;
}

export interface StepTiming {
  startedAt: Date;
  /** Milliseconds from the request to the first text or tool-call part; absent when none came. */
  firstTokenMs?: number;
  /** Milliseconds from the request to the stream's end (or its failure). */
  durationMs: number;
}

/**
 * An agent another framework runs in process (an ADK agent, through `@tether-agent/tether/adk`):
 * Tether hands it the thread and the run's tools, one step at a time, and settles, stores and
 * streams what it returns as it does a model's step. The framework's own loop (model, its tools,
 * model…) is one step of Tether's run.
 */
export interface StepEngine {
  /** For the record, spans and capabilities, in place of a model's. */
  provider: string;
  modelId: string;
  /** One step: streams its events through `emit`; returns what it produced and the calls it left open. Never throws. */
  doStep(input: EngineStepInput): Promise<StepResult>;
}

export interface EngineStepInput {
  threadId: string;
  runId: string;
  user: TetherUser;
  /** The client's AG-UI context, for the prompt. */
  context: Context[];
  /** The thread's shared state: the engine reads it, and changes it only through it (checked, streamed). */
  state: RunState;
  /** The run's tools as Tether settles them: the allow-listed browser tools are the engine's to declare. */
  tools: ReadonlyMap<string, RunTool>;
  /** The thread as the run holds it now (the stored thread, or the client's history). */
  messages: Message[];
  /** 1, 2, … within the run. */
  step: number;
  /** Answers to the engine's own held calls, delivered on the first step of the run that carries them. */
  confirmations: EngineConfirmation[];
  signal: AbortSignal;
  emit(event: BaseEvent): void;
  newMessageId(): string;
  /** Call ids the thread already used: the engine's must differ. */
  usedToolCallIds: Set<string>;
  /** Metadata for a call's TOOL_CALL_END (a browser call awaiting approval, one never to run). */
  endMetadata?(call: StepCall): Record<string, unknown> | undefined;
  /** Told of what the engine did that Tether did not pass on, for the run's log. */
  onIgnored?(what: string, why: string): void;
}

/** A person's answer to a call the engine held for confirmation, with the interrupt it answers. */
export interface EngineConfirmation {
  stored: StoredInterrupt;
  answer: ResumeEntry;
}
