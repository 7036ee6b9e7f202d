import type { TriggerKind } from "./trigger.ts";

/**
 * The run record: what one run leaves behind, as `GET /api/runs/:runId/record`
 * serves it, the viewer at `/runs/` shows it and `tether record` prints it.
 * Five parts, after seed 004's list of what a run must retain to be
 * debuggable: what started it, what the agent was given, each model call,
 * what the client was sent, and what the browser reported back.
 *
 * Written as the run goes: a run whose process died mid-way has a record that
 * says `complete: false` and holds everything stored up to that point.
 * Secrets never enter it (keys, authorization headers, tokens, cookies are
 * replaced by `"[redacted]"`), and each large value is capped: what was cut is
 * described by a `Cut` (its length and hash), never silently dropped.
 */
export interface RunRecordDocument {
  /** The record format's version; a reader refuses one it does not know (2: cuts are listed in `cuts`). */
  format: 2;
  runId: string;
  threadId: string;
  agentId: string;
  /** Whose run it is (the thread's owner). */
  userId: string;
  status: "running" | "finished" | "cancelled" | "error";
  /** False while the run goes, and for a run its process never ended (a crash): the record stops where the store does. */
  complete: boolean;
  /** Why an ended record is incomplete: the error its lost run was ended with (`instance_lost`, …). */
  incomplete?: { code: string; message: string };
  createdAt: string;
  finishedAt?: string;
  /** The OpenTelemetry trace of the run, when telemetry is on: the join key between the two. */
  traceId?: string;

  /** 1. What started the run and how it links to the runs around it. */
  start: RecordStart;
  /** 2. What was sent to the agent. */
  input: RecordInput;
  /** 3. Each model call, in order. */
  modelCalls: RecordModelCall[];
  /** 4. What the client was sent. */
  output: RecordOutput;
  /** 5. What the browser reported, and what each report led to. */
  reports: RecordReport[];

  /** How the run ended, as its last event said. */
  outcome?: { type: "success" | "interrupt" | "cancelled"; pendingToolCallIds?: string[]; interruptIds?: string[] };
  error?: { code: string; message: string };
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };

  /**
   * Where the server cut values in this document, as JSON Pointers (`/input/state`,
   * `/output/events/3/event/delta`). Only an object at one of these places is a
   * `Cut`: anything else shaped like one is data a client or a model sent.
   */
  cuts: string[];
}

/** A value too large to keep whole: its beginning, and what identifies the rest. Only at a place `cuts` lists. */
export interface Cut {
  cut: true;
  /** The first characters of the value (as JSON when it was not a string). */
  head: string;
  /** The whole value's length in characters (of its JSON when it was not a string). */
  length: number;
  /** `sha256:<hex>` of the whole value (of its JSON when it was not a string). */
  sha256: string;
}

/** A value as the record keeps it: whole, or cut. */
export type Kept<T> = T | Cut;

export type RecordTriggerKind = TriggerKind;

export interface RecordStart {
  trigger: {
    kind: RecordTriggerKind;
    /** The user message that started it (`user-message`), or whose answer it gives again (`regenerate`). */
    messageId?: string;
    /** The browser calls whose outcomes it carries (`tool-result`). */
    toolCallIds?: string[];
    /** The approvals it answers (`resume`), with each answer. */
    answers?: Array<{ interruptId: string; status: "resolved" | "cancelled"; approved?: boolean }>;
    /** The click on a surface (`ui-action`): the user action as the server checked it. */
    action?: { name: string; surfaceId: string; sourceComponentId: string; context: Kept<unknown>; timestamp: string };
  };
  /** The run this one continues (the run that asked for the outcome, the approval, or produced the surface), if any. */
  previousRunId?: string;
  /** Runs that continue this one, oldest first. */
  nextRunIds: string[];
}

export interface RecordInput {
  /** The history the model was given (new messages of this run marked by `newMessageIds`). */
  messages: Kept<unknown[]>;
  messageCount: number;
  newMessageIds: string[];
  /** The shared state the client sent (in server history, `{}` means it sent none). */
  state: Kept<unknown>;
  /**
   * The person's edit of the shared state between runs: the request's state
   * differed from the thread's and replaced it (server history). The JSON
   * Patch from the thread's state to the request's; absent when there was none.
   */
  stateEdit?: Kept<Array<{ op: string; path: string; value?: unknown; from?: string }>>;
  context: Kept<unknown[]>;
  /** The client's other forwarded props (redacted). */
  forwardedProps: Kept<unknown>;
  /** Every tool considered for the run and what the allow-list decided. */
  tools: RecordToolDecision[];
  /** The catalogs generated surfaces were validated against (empty when the agent has no generated UI). */
  surfaceCatalogs: string[];
}

export interface RecordToolDecision {
  name: string;
  /** `upstream`: an upstream agent's own tool that Tether holds for a person's approval. */
  location: "server" | "browser" | "upstream";
  /** `offered`: the model saw it; `dropped`: a declared browser tool left out (policy `drop`); `refused`: the request was refused over it. */
  decision: "offered" | "dropped" | "refused";
  /** Why it was dropped or refused (the error code and message). */
  reason?: { code: string; message: string };
}

export interface RecordModelCall {
  /** 1, 2, … within the run. */
  step: number;
  model: { provider: string; modelId: string };
  /** The call's settings (temperature, max tokens, tool choice…), as far as the agent set them. */
  settings: Record<string, unknown>;
  messageCount: number;
  toolCount: number;
  startedAt: string;
  /** Milliseconds from the request to the first streamed part; absent when nothing streamed. */
  firstTokenMs?: number;
  /** Milliseconds from the request to the stream's end. */
  durationMs: number;
  finishReason?: string;
  /** The text the model wrote in this call. */
  text: Kept<string>;
  toolCalls: RecordToolCall[];
  /** Each `render_a2ui` attempt in this call, with the validator's verdict. */
  surfaces: RecordSurfaceAttempt[];
  usage?: { inputTokens?: number; outputTokens?: number; totalTokens?: number };
  /**
   * Set when the call failed (a provider error, an abort): the code and message
   * the client was told, and for a provider's error its status and kind.
   */
  error?: { code: string; message: string; provider?: RecordProviderError };
  /**
   * A step an upstream AG-UI agent answered (`model.provider` `ag-ui`): the
   * events it sent, beside the events the run sent (`output`). Absent for a
   * model's call, with records off, and in runs recorded before Tether kept them.
   */
  upstream?: RecordUpstreamEvents;
}

/**
 * What an upstream agent sent in one step, in order, as Tether received it:
 * each event as parsed from the wire (or as an `AbstractAgent` gave it),
 * before `@ag-ui/client`'s compatibility boundary and chunk transform made it
 * AG-UI 1.0's. Redacted (its streamed deltas as the whole they add up to) and
 * capped like any event of a record, and as a whole: the first 500 events, up
 * to 128 KiB of them as JSON, with what was left out counted.
 */
export interface RecordUpstreamEvents {
  /** How many events the upstream sent in this step (up to where Tether stopped reading). */
  received: number;
  /** The first of them, as received. */
  events: RecordUpstreamEvent[];
  /** The events past the caps: how many, and how many of those Tether set aside. Absent when `events` holds them all. */
  leftOut?: { count: number; ignored: number };
}

export interface RecordUpstreamEvent {
  type: string;
  /** The event as received, redacted and capped (16 KiB). */
  event: Kept<unknown>;
  /**
   * Why Tether set it aside (or an event the client library made of it), as
   * the run's log says (`upstream_events_ignored`): not passed on to the
   * client, nor acted on. Absent for every event Tether took.
   */
  ignored?: string;
}

/**
 * A model provider's error as Tether tells it: its HTTP status and the kind
 * Tether made of it. Never the provider's own words: providers and proxies
 * echo the request (its key, its headers) in them, and a record is read by
 * the thread's owner. Those words, redacted, are the operator's: in the
 * server's log and the model call's span.
 */
export interface RecordProviderError {
  statusCode?: number;
  failure?: string;
}

export interface RecordToolCall {
  toolCallId: string;
  toolName: string;
  /** Where it ran: on the server, in the browser, at the upstream agent, or nowhere (refused before running). */
  location: "server" | "browser" | "upstream" | "none";
  arguments: Kept<string>;
  /**
   * What became of it: `result` for a server tool, `pending` for a browser call
   * whose outcome comes in a later run (see `reports` and the next run),
   * `approval` when it waits for a person, `refused` when checks stopped it.
   */
  status: "result" | "pending" | "approval" | "refused" | "error";
  result?: Kept<unknown>;
  /** When a server tool began executing (with `durationMs`, how long it took). */
  startedAt?: string;
  durationMs?: number;
  /** The approval asked for it. */
  interruptId?: string;
}

export interface RecordSurfaceAttempt {
  toolCallId: string;
  surfaceId: string;
  attempt: number;
  maxAttempts: number;
  /** `rendered`: sent as operations; `retrying`: sent back to the model; `failed`: the last attempt failed. */
  verdict: "rendered" | "retrying" | "failed";
  errors: Array<{ code: string; path: string; message: string }>;
}

export interface RecordOutput {
  /** How many events the run sent, and the last sequence number stored. */
  eventCount: number;
  lastSeq: number;
  /**
   * The events as sent, in pages (see `next`): each with its sequence number
   * and type, and the ids it carries; `event` is the whole event, capped,
   * but for the messages a RUN_STARTED (`input.messages`) or a
   * MESSAGES_SNAPSHOT (`messages`) carried: those are given as `messageCount`
   * and `messageIds` in their place. The history is the record's
   * `input.messages` (a RUN_STARTED's are its `input.newMessageIds`), what
   * the run said is in `modelCalls`, so a page never holds the conversation twice.
   */
  events: Array<{ seq: number; type: string; messageId?: string; toolCallId?: string; event: Kept<unknown> }>;
  /** Where the next page of events starts (`?afterSeq=`); absent when this is the rest. */
  next?: { afterSeq: number };
  /** The shared state the run ended with, as the store kept it (its last committed change); absent when the thread had none. */
  state?: Kept<unknown>;
  /** The final version of each surface the run showed. */
  surfaces: Array<{ messageId: string; surfaceId?: string; status: "rendered" | "failed" | "building" | "retrying"; content: Kept<unknown> }>;
}

export interface RecordReport {
  receivedAt: string;
  kind: "tool-outcome" | "renderer-error" | "ui-action";
  toolCallId?: string;
  toolName?: string;
  surfaceId?: string;
  /** The report as the browser sent it (redacted, capped). */
  body: Kept<unknown>;
  /** The run this report led to: the run that carried the outcome, or that the click started. */
  ledToRunId?: string;
}

/** `GET /api/threads/:threadId/runs`: the thread's chain of runs, oldest first. */
export interface ThreadRunChain {
  threadId: string;
  agentId: string;
  runs: Array<{
    runId: string;
    status: RunRecordDocument["status"];
    complete: boolean;
    createdAt: string;
    finishedAt?: string;
    trigger: { kind: RecordTriggerKind; summary: string };
    previousRunId?: string;
    nextRunIds: string[];
    outcome?: RunRecordDocument["outcome"];
    error?: { code: string };
  }>;
}
