import type { BaseEvent, Interrupt, Message, ResumeEntry, RunFinishedOutcome, TokenUsage } from "@ag-ui/core";
import type { Trigger } from "../../protocol/index.ts";
import type { RunRequestSummary } from "./shared/run-request-summary.ts";

// What the store keeps and is handed: threads, runs, their events, calls, approvals and reports. The port
// (RunStore) is port.ts, which re-exports these.

/**
 * A fact a run wrote down for its record, kept as written (JSON) and never
 * read past its `kind`: what each kind means is the record's (`RunFact` in
 * src/server/record/run-facts.ts), so the store needs nothing of the record.
 */
export interface StoredFact {
  kind: string;
}

/**
 * An agent's shared state (AG-UI's `state`): a JSON object the page and the
 * agent both change. The thread holds its current value; each run holds the
 * value it ended with.
 */
export type AgentState = Record<string, unknown>;

export interface StoredThread {
  threadId: string;
  agentId: string;
  /** The user who started the thread; only they read and continue it. */
  ownerId: string;
  createdAt: string;
  updatedAt: string;
  /** The thread's shared state as its last committed step left it (absent: none yet). */
  state?: AgentState;
}

export type RunStatus = "running" | "finished" | "cancelled" | "error";

export interface StoredRun {
  runId: string;
  threadId: string;
  agentId: string;
  userId: string;
  parentRunId?: string;
  trigger?: Trigger;
  status: RunStatus;
  outcome?: RunFinishedOutcome;
  error?: { code: string; message: string };
  usage?: TokenUsage[];
  /** What a thread's chain shows of the request without reading it (absent on runs stored before it was kept). */
  requestSummary?: RunRequestSummary;
  log: RunLogEntry[];
  /** The shared state the run started from or, once it committed a change, left (absent: it had none). */
  state?: AgentState;
  createdAt: string;
  finishedAt?: string;
}

/** What links a run to the runs around it. */
export type RunLink = Pick<StoredRun, "runId" | "parentRunId" | "trigger" | "createdAt">;

export interface RunLogEntry {
  level: "info" | "warn" | "error";
  code: string;
  message: string;
  details?: unknown;
}

export interface PendingToolCall {
  toolCallId: string;
  toolName: string;
  runId: string;
  /** The arguments exactly as the model streamed them. */
  arguments: string;
}

export interface StoredEvent {
  seq: number;
  event: BaseEvent;
  /** The event already serialized as JSON, when the caller has it: a store may write it as is rather than serialize again. */
  json?: string;
}

export interface RunReport {
  receivedAt: string;
  report: unknown;
}

export interface BeginRun {
  thread: { threadId: string; agentId: string; ownerId: string };
  /** The run's first events, from seq 1: RUN_STARTED (and the snapshot a client lacks). */
  events: StoredEvent[];
  run: {
    runId: string;
    userId: string;
    parentRunId?: string;
    trigger?: Trigger;
    /** The request as it arrived (after validation); read back only by `readRunInput`. */
    input: unknown;
    requestSummary?: RunRequestSummary;
    log: RunLogEntry[];
  };
  /** The run's first facts for its record (the tools it considered). */
  facts?: StoredFact[];
  /** New messages for the thread's history, in order. */
  messages: Message[];
  /** Pending browser calls this run answers (or closes as unanswered). */
  resolvedToolCallIds: string[];
  /**
   * A run that answers the last user message again (`regenerate`): every
   * message after `afterMessageId` is set aside, kept for the earlier runs'
   * records but no longer part of the thread. Refused with `history_conflict`,
   * writing nothing, unless they are the `count` messages the run was
   * prepared with (the thread moved on meanwhile).
   */
  supersede?: { afterMessageId: string; count: number };
  /**
   * The state the run starts from, when the thread had none or the request
   * changed it (a person's edit between runs): stored as the thread's and the
   * run's in the same write. Absent: the run starts from the thread's.
   */
  state?: AgentState;
  /**
   * Interrupts this run answers. Recorded in the same transaction that starts
   * the run, before anything executes: an answer is acted on at most once.
   */
  resolvedInterrupts?: Array<{
    interruptId: string;
    answer: ResumeEntry;
    /** What was asked, recorded with its answer when the store never saw the question (a stateless interrupt after a restart). */
    interrupt: StoredInterrupt;
  }>;
}

export interface CommitStep {
  threadId: string;
  runId: string;
  messages: Message[];
  pending: PendingToolCall[];
  /** Approvals this step asked for. */
  interrupts?: StoredInterrupt[];
  /** Facts for the run's record (the step's model call), stored in the same write. */
  facts?: StoredFact[];
  /** The shared state after this step, when the step changed it: the thread's and the run's, with the step's messages. */
  state?: AgentState;
}

/** An interrupt as the store keeps it: what was asked, about which call, and the answer once there is one. */
export interface StoredInterrupt {
  interrupt: Interrupt;
  threadId: string;
  runId: string;
  userId: string;
  toolCallId: string;
  toolName: string;
  /** The arguments the person was asked about, exactly as streamed. */
  arguments: string;
  status: "pending" | "resolved" | "cancelled";
  answer?: ResumeEntry;
  /** The run that carried the answer. */
  resolvedByRunId?: string;
}

export interface FinishRun {
  runId: string;
  status: Exclude<RunStatus, "running">;
  outcome?: RunFinishedOutcome;
  error?: { code: string; message: string };
  usage?: TokenUsage[];
  /** The run's events not stored yet, its RUN_FINISHED or RUN_ERROR last. */
  events?: StoredEvent[];
  /** Facts for the run's record not stored yet (a last model call that committed no step). */
  facts?: StoredFact[];
  /** The shared state, when it changed since the run's last commit (an answer applied, a step cut short). */
  state?: AgentState;
}

/** Why a run whose process is gone was ended. */
export interface LostRunEnding {
  code: "instance_lost" | "run_cancelled";
  message: string;
  status: "error" | "cancelled";
}
