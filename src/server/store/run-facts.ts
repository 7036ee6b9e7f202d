import type { RecordModelCall, RecordProviderError, RecordToolCall, RecordToolDecision } from "../../protocol/index.ts";

/**
 * What a run writes down for its record as it goes, beside its events and
 * messages: the facts nothing else keeps. Each travels with a write the run
 * makes anyway (the run's start, a step's commit, the run's end), so the
 * record costs no transaction of its own.
 */
export type RunFact = ToolsOfferedFact | ModelCallFact | TraceFact;

/** The tools the run considered, as its start decided; written with the run. */
export interface ToolsOfferedFact {
  kind: "tools";
  tools: RecordToolDecision[];
}

/**
 * One model call: its request summary, timing, finish and usage, and what
 * became of each tool call. Its text and the calls' arguments and results are
 * in the thread's messages (`messageId` and the tool messages answering the
 * calls), so they are not stored twice.
 */
export interface ModelCallFact extends Omit<RecordModelCall, "text" | "toolCalls" | "error"> {
  kind: "model-call";
  /** The assistant message the call produced; absent when it produced none. */
  messageId?: string;
  toolCalls: ToolCallFact[];
  /** As the record's, with the provider's own words (redacted) for the operator's span; the record leaves them out. */
  error?: { code: string; message: string; provider?: ProviderErrorFact };
}

/** A provider's error with its own words, redacted: the model call's span says them, no record does. */
export interface ProviderErrorFact extends RecordProviderError {
  message: string;
}

/** A tool call as the run settled it; its arguments and result live in the thread's messages. */
export type ToolCallFact = Omit<RecordToolCall, "arguments" | "result">;

/**
 * The OpenTelemetry span that describes the run, when telemetry is on:
 * written with the run's start, so the record names its trace (`traceId`) and
 * a trace can be joined with the record (the run span has `tether.run.id`).
 */
export interface TraceFact {
  kind: "trace";
  traceId: string;
  /** The run span (`invoke_agent`); model calls and tool executions are its children. */
  spanId: string;
}
