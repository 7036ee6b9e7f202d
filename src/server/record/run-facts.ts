import type { JsonPatchOperation } from "@ag-ui/core";
import type {
  RecordInput,
  RecordModelCall,
  RecordProviderError,
  RecordStart,
  RecordToolCall,
  RecordToolDecision,
  RecordUpstreamEvents,
} from "../../protocol/index.ts";

/**
 * What a run writes down for its record as it goes, beside its events and
 * messages: the facts nothing else keeps. Each travels with a write the run
 * makes anyway (the run's start, a step's commit, the run's end), so the
 * record costs no transaction of its own.
 */
export type RunFact = ToolsOfferedFact | ModelCallFact | UpstreamEventsFact | TraceFact | RecordRequestFact | RecordCallsFact | StateEditFact;

/**
 * The person's edit of the shared state between runs: the request's state
 * differed from the thread's and replaced it (server history). The JSON Patch
 * from the thread's state to the request's; written with the run.
 */
export interface StateEditFact {
  kind: "state-edit";
  operations: JsonPatchOperation[];
}

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
  /**
   * An upstream agent's step may produce several assistant messages (text, its own tool's call and
   * result, more text): all of them, in order, when there are more than one; `messageId` is the last.
   */
  messageIds?: string[];
  toolCalls: ToolCallFact[];
  /** As the record's, with the provider's own words (redacted) for the operator's span; the record leaves them out. */
  error?: { code: string; message: string; provider?: ProviderErrorFact };
}

/**
 * What an upstream agent sent in one step (the record's `upstream` of that
 * step's model call): the events as received, capped as they came; redacted
 * when the record is read, as the run's own events are, but for an event cut
 * as it came (redacted then). A fact of its own, not a field of the model
 * call's: that one also goes to telemetry, which has no use for these, and
 * this one is written only when records are on. Joined to its call by `step`.
 */
export interface UpstreamEventsFact extends RecordUpstreamEvents {
  kind: "upstream-events";
  step: number;
  /** Where its cuts are (JSON Pointers into `events`). */
  cuts: string[];
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

/**
 * What the run's record says of its request (its `input` but the tools, and
 * its trigger), redacted and capped once, on the record's first read: it is
 * computed over the whole request (in client mode the whole history), which
 * never changes once the run began. `rules` is the version of the redaction
 * and cap rules it was kept with; a read under other rules computes it again.
 * Two readers may both write it: any one with the current rules will do.
 */
export interface RecordRequestFact {
  kind: "record-request";
  rules: number;
  input: Omit<RecordInput, "tools">;
  trigger: RecordStart["trigger"];
  /** Where its cuts are (JSON Pointers into `{ input, trigger }`): JSON keeps no mark of a cut. */
  cuts: string[];
}

/** An ended run's model calls as its record gives them (texts and results redacted and capped), kept on the first read after it ended. */
export interface RecordCallsFact {
  kind: "record-calls";
  rules: number;
  modelCalls: RecordModelCall[];
  /** Where their cuts are (JSON Pointers into `modelCalls`). */
  cuts: string[];
}
