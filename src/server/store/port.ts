import type { Message } from "@ag-ui/core";
import type { ReportCaps } from "./shared/report-room.ts";
import type {
  StoredThread,
  StoredRun,
  RunLink,
  RunLogEntry,
  PendingToolCall,
  StoredEvent,
  RunReport,
  BeginRun,
  CommitStep,
  StoredInterrupt,
  FinishRun,
  LostRunEnding,
  StoredFact,
} from "./stored-data.ts";
import type { RunRequestSummary } from "./shared/run-request-summary.ts";

export type { RunRequestSummary };
// What the store keeps lives beside the port; importers of the port keep finding it here.
export type * from "./stored-data.ts";

/**
 * How far a run's stream may run ahead of its stored log. Events reach
 * clients before they are stored (the store gets them in pages every few
 * milliseconds); a process that dies leaves at most this many events that a
 * client may hold and the store never got. Whoever ends such a run writes its
 * last events after that gap, so an SSE id names one event forever, even
 * across a crash, and a client holding any id it was sent still gets the end.
 * Part of the stored format: every store and hub uses this one number.
 */
export const UNSTORED_EVENT_LIMIT = 4096;

/**
 * Where threads, messages, runs, the event log and pending browser calls live.
 *
 * Every method is async so a networked database (PostgreSQL) can stand behind
 * the same contract as the embedded SQLite default. Methods that change more
 * than one thing (`beginRun`, `commitStep`, `finishRun`) are atomic: either all
 * of it is stored or none of it.
 */
export interface RunStore {
  getThread(threadId: string): Promise<StoredThread | undefined>;
  /**
   * The thread's messages, in order, without those a regenerated answer set
   * aside: the model's history, and the activity
   * messages of the surfaces it showed, each with its final content (UI state
   * for a client restoring the thread; never part of a model's prompt).
   * `excludeRunId` leaves out the messages a run added (a client restoring a
   * thread replays the active run from its events, so it takes the history
   * from before it). `beforeRunId` keeps only the messages of the runs that
   * began before that one: the thread as that run found it (its record).
   * `withSetAside` gives every message the thread ever held, those a
   * regenerated answer set aside too: what a run said stays in its record.
   */
  getMessages(threadId: string, options?: { excludeRunId?: string; beforeRunId?: string; withSetAside?: boolean }): Promise<Message[]>;
  /** The run that added a message to the thread. */
  getMessageRun(threadId: string, messageId: string): Promise<string | undefined>;
  /** Browser tool calls of the thread still waiting for their outcome. */
  getPendingToolCalls(threadId: string): Promise<PendingToolCall[]>;
  /** An interrupt (an approval asked for), answered or not. */
  getInterrupt(interruptId: string): Promise<StoredInterrupt | undefined>;
  /** The thread's interrupts still waiting for an answer, oldest first. */
  getPendingInterrupts(threadId: string): Promise<StoredInterrupt[]>;
  /** The run without its request (see `readRunInput`). */
  getRun(runId: string): Promise<StoredRun | undefined>;
  /** The thread's run with status `running`, if any, without its request. */
  getActiveRun(threadId: string): Promise<StoredRun | undefined>;
  /** The thread's runs, oldest first, without their requests. */
  listRuns(threadId: string): Promise<StoredRun[]>;
  /**
   * The request a run began with, exactly as `beginRun` got it (undefined
   * for an unknown run). The one read of it: a stateless agent's request
   * holds the whole history, so only the run's own record reads it, never a
   * thread's listing, lookup or reconnect. A history is stored once per
   * thread, message by message, by content (see run-input-history.ts).
   */
  readRunInput(runId: string): Promise<unknown>;
  /**
   * The thread's runs, oldest first, as far as the links between them go.
   * Without their requests: a stateless thread's runs each hold the whole
   * history, so reading them all for one run's record grows with the square
   * of the conversation.
   */
  listRunLinks(threadId: string): Promise<RunLink[]>;

  /**
   * Creates the thread if it is new, the run and its first events (RUN_STARTED
   * at seq 1, so every stored run says how it started), and appends the run's new
   * messages; marks answered browser calls resolved. Refuses with `run_exists`
   * when the run id is taken, `run_in_progress` when the thread already has
   * a running run, and `history_conflict` when a call in `resolvedToolCallIds`
   * is no longer pending (another run answered it since the request was
   * checked: the same outcome from two tabs), checked inside the same
   * transaction, so a call is answered once.
   */
  beginRun(begin: BeginRun): Promise<void>;
  /**
   * Appends events to a run's log; sequence numbers are assigned by the caller
   * and never reused. Events of a run that is not running (ended elsewhere
   * meanwhile) are not stored.
   */
  appendEvents(runId: string, events: StoredEvent[]): Promise<void>;
  /** The run's events with `seq > afterSeq`, in order. */
  readEvents(runId: string, afterSeq?: number): Promise<StoredEvent[]>;
  /** The run's last stored event (its RUN_FINISHED or RUN_ERROR once it ended). */
  getLastEvent(runId: string): Promise<StoredEvent | undefined>;
  /**
   * Stores one model step: its messages (a surface's activity message after
   * the results) and the browser calls it left pending. Refuses with
   * `run_not_active`, writing nothing, when the run is no longer running:
   * someone else ended it (its instance was taken for gone) and the thread
   * may already have a new run. Checked inside the same transaction.
   */
  commitStep(step: CommitStep): Promise<void>;
  /**
   * Records how the run ended, with its last events, in one write; the run
   * stops being active. Does nothing to a run that already ended.
   */
  finishRun(finish: FinishRun, options?: { waitMs?: number }): Promise<void>;
  /**
   * Ends a run whose process is gone (it crashed, or its end could not be
   * stored): appends, after a gap of UNSTORED_EVENT_LIMIT past its last stored
   * event, a MESSAGES_SNAPSHOT of what the thread kept and a RUN_ERROR that
   * says which events were lost; marks the run ended with `error`. Returns
   * those events, or undefined when the run was not running.
   */
  endLostRun(runId: string, ending: LostRunEnding): Promise<StoredEvent[] | undefined>;
  /** Appends to the run's log (a dropped tool, a warning). */
  appendLog(runId: string, entries: RunLogEntry[]): Promise<void>;
  /**
   * Stores what a browser reported about a run (tool outcomes, renderer
   * errors). With `caps`, refuses with `report_limit_exceeded`, storing
   * nothing, a report the run has no room for: checked against the run's
   * report count and bytes, kept beside its reports and updated in the same
   * write (on PostgreSQL under the run's row lock), so instances sharing the
   * store cannot pass the caps together and a refusal reads no stored
   * report. Refuses with `run_not_found` a run the store does not have.
   */
  addReport(runId: string, report: unknown, caps?: ReportCaps): Promise<void>;
  listReports(runId: string): Promise<RunReport[]>;
  /** What the run wrote down for its record (see `StoredFact`), in the order it was written. */
  listFacts(runId: string): Promise<StoredFact[]>;
  /**
   * Adds facts after the run's own writes: its record's parts computed once on
   * a first read (`record-request`, `record-calls`), so no later read, restart
   * or other instance computes them again. Refuses with `run_not_found` a run
   * the store does not have.
   */
  appendFacts(runId: string, facts: StoredFact[]): Promise<void>;
  /**
   * Ends every run left `running` by a process that stopped, as `endLostRun`
   * does with code `instance_lost`, so their threads can continue. Called once
   * at start-up by the process that owns the store; returns how many.
   */
  recoverInterruptedRuns(): Promise<number>;
  /**
   * Run leases, on a store that several live instances share (PostgreSQL on
   * a server): ends with `instance_lost`, as `recoverInterruptedRuns` does,
   * the running runs whose instance is gone, never those of an instance still
   * alive nor this one's. Safe to call often and from every instance at once:
   * each run is ended by one of them. Absent on a store only one process uses
   * (SQLite, memory, PGlite), where start-up recovery is all there is to do.
   * Returns how many runs it ended.
   */
  endRunsOfLostInstances?(): Promise<number>;
  /**
   * On a store that several live instances share: tells `listener` each time
   * this instance loses what shows the others it is alive (on PostgreSQL, the
   * connection holding its liveness lock broke; the store takes it again once
   * the database answers). Another instance may then end this one's runs as
   * lost at any moment, so the app stops them itself (RUN_ERROR
   * `instance_lost`) rather than have them finish twice. Absent where no
   * other instance can end this one's runs.
   */
  onOwnershipLost?(listener: (error: unknown) => void): void;
  /**
   * On a store that several live instances share: records that someone asked
   * to cancel a run another instance executes, for when the ask cannot reach
   * that instance otherwise (Redis down or stalled). True when the run was
   * running, so the request stands; false when it had ended. The executing
   * instance finds it with `listCancelRequests`. Absent where one process
   * executes every run.
   */
  recordCancelRequest?(runId: string): Promise<boolean>;
  /** This instance's running runs that someone asked to cancel (`recordCancelRequest`). */
  listCancelRequests?(): Promise<string[]>;
  /**
   * The clock every instance sharing this store reads alike (PostgreSQL: the
   * database's), for what they must judge alike: when an approval asked on
   * one lapses when answered through another. Absent where one process uses
   * the store: its own clock is the only one.
   */
  now?(): Promise<Date>;
  close(): Promise<void>;
}
