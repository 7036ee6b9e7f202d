import { randomUUID, type AgentSubscriber } from "@ag-ui/client";
import type { BaseEvent, ResumeEntry } from "@ag-ui/core";
import { TetherError, toAgUiTool, type ApprovalResponse, type Trigger } from "../../protocol/index.ts";
import { errorJson } from "../errors.ts";
import type { CallJournal, ToolRegistry, ToolRunner } from "../tools/index.ts";
import type { TetherHttpAgent } from "../transport/index.ts";
import { dropUnsent } from "./drop-unsent.ts";
import type { InterruptAnswers } from "./interrupt-answers.ts";
import type { OutcomeReporter } from "./outcome-reporter.ts";
import type { RunCancel } from "./run-cancel.ts";
import { createRunEventReader, type RunEnd } from "./run-event-reader.ts";
import type { SessionStore } from "./session-store.ts";
import type { SessionSharedState } from "./shared-state.ts";
import type { AgentSessionOptions, SurfaceAction } from "./session-types.ts";
import { showInterrupts } from "./show-interrupts.ts";
import type { ThreadChannel } from "./thread-channel.ts";

/** A run followed to its end: its id and the browser calls it left waiting. */
export interface FollowedRun {
  runId: string;
  pending: string[];
}

/** Every run of a session, started, followed or answered, goes through this. */
export interface RunController {
  /** Reads one event of a run as it arrives off the wire (the session's middleware hands each over once). */
  read(event: BaseEvent, live: boolean): void;
  /**
   * Starts a run (a message, a regenerate), then the continuations its follow-up browser calls ask for, until the
   * agent is done; false when the server never started the first run (refused it, or was not reached).
   */
  start(trigger: Trigger, resume?: ResumeEntry[]): Promise<boolean>;
  /** Follows the thread's active run without acting on it; returns the run and its pending calls. */
  follow(): Promise<FollowedRun | undefined>;
  /** Hands back the outcomes of a run's browser calls and continues the run for follow-ups (unless `continueRun` is false). */
  report(parentRunId: string, toolCallIds: string[], options?: { continueRun?: boolean }): Promise<void>;
  /** Answers one open interrupt; once each has an answer, they go back to the agent in one run. */
  answer(interruptId: string, response: ApprovalResponse | "cancel"): Promise<void>;
  /** Sends a click on a generated surface as a run of its own. */
  act(action: SurfaceAction): Promise<void>;
  /** Browser calls being carried out and reported (and the runs that carry them): the answer is not finished yet. */
  reporting(): boolean;
}

export interface RunControllerOptions {
  /** The session's agent: it streams the runs and holds the conversation. */
  agent: TetherHttpAgent;
  /** The session's state: read, and changed as a run goes. */
  store: SessionStore;
  /** Owns each run this page asks for, so a reload knows whose calls they are. */
  journal: CallJournal;
  /** The browser tools declared with every run. */
  registry: ToolRegistry;
  /** Acts on each event, and knows which calls this page performed that the server has no result for. */
  runner: ToolRunner;
  /** Keeps the session's messages in step with the reference pipeline. */
  subscriber: AgentSubscriber;
  /** The session's options, for the app's `context`, read at the start of each run. */
  sessionOptions: Pick<AgentSessionOptions, "context">;
  /** The answers a resume run carries, forgotten once it has. */
  answers: InterruptAnswers;
  /** Hands back the outcomes of the runs' browser calls, and holds those the next run carries. */
  outcomes: OutcomeReporter;
  /** Stop: a Stop pressed before the server had the run is sent once the run starts. */
  cancel: RunCancel;
  /** Tells the thread's other tabs that this one started a run; none without BroadcastChannel. */
  channel: ThreadChannel | undefined;
  /** The agent's shared state: each request carries the person's edits, and those made while a run streams wait for its end. */
  sharedState: Pick<SessionSharedState, "sending" | "following" | "ended" | "clearConflicts">;
}

/** What one run streamed: whether the server took it, and which browser calls' outcomes it owes. */
interface StreamedRun {
  taken: boolean;
  owed?: { runId: string; toolCallIds: string[]; continueRun: boolean };
}

/**
 * The run controller: starts a session's runs, follows the ones it only
 * watches, and answers them (browser calls' outcomes, approvals, clicks). The
 * loop that carries follow-up outcomes to the model is here, in one place: a
 * run ends on browser calls, their outcomes are reported, and the
 * continuation run starts, until no follow-up is left.
 */
export function createRunController(options: RunControllerOptions): RunController {
  const { agent, store, journal, runner, outcomes } = options;
  const setState = store.set;
  let runEnd: RunEnd | undefined;
  let startedRunId: string | undefined;
  // Whether the run being streamed started (any RUN_STARTED, whatever id a plain AG-UI server gives it).
  let started = false;
  let reporting = 0;

  /** The end of the run just streamed, taken once. */
  const takeRunEnd = (): RunEnd | undefined => {
    const end = runEnd;
    runEnd = undefined;
    return end;
  };

  const read = createRunEventReader({
    journal,
    runner,
    onRunStarted(runId) {
      startedRunId = runId;
      started = true;
      // A run this tab started before a reload is still its own to stop (it only watches its events: they were acted on).
      setState({ runId, ...(store.get().observing && journal.owns(runId) ? { observing: false } : {}) });
      if (!store.get().observing) {
        options.channel?.announce(runId);
        outcomes.clearHeld(); // its request carried them (or, regenerating, set their calls aside)
      }
      options.cancel.started(runId);
    },
    onRunEnded(end) {
      runEnd = end;
      if (end.error) setState({ error: errorJson(end.error) });
    },
  });

  /** A stopped run's answer so far is marked stopped; with none begun, the message it stopped after. */
  const markStopped = (before: Set<string>) => {
    const answered = agent.messages.filter((message) => !before.has(message.id) && message.role === "assistant" && message.content);
    const asked = agent.messages.at(-1)?.role === "user" ? [agent.messages.at(-1)!.id] : [];
    const marked = answered.length > 0 ? answered.map((message) => message.id) : asked;
    setState({ stoppedMessageIds: [...store.get().stoppedMessageIds, ...marked] });
  };

  /** Streams one run to its end; says what its browser calls are owed. */
  const stream = async (trigger: Trigger, resume?: ResumeEntry[], forwarded: Record<string, unknown> = {}): Promise<StreamedRun> => {
    // A message the server never took stays out of every other run (a click, an answer, a report): only Retry sends it.
    dropUnsent(agent, store);
    const requestedRunId = randomUUID();
    journal.ownRun(requestedRunId);
    setState({ running: true, observing: false, runId: requestedRunId, error: undefined });
    takeRunEnd();
    const before = new Set(agent.messages.map((message) => message.id));
    let end: RunEnd | undefined;
    started = false;
    try {
      const parameters = {
        runId: requestedRunId,
        tools: options.registry.list().map((handler) => toAgUiTool(handler.spec)),
        ...(options.sessionOptions.context ? { context: options.sessionOptions.context() } : {}),
        forwardedProps: { ...forwarded, tether: { trigger } },
        ...(resume ? { resume } : {}),
      };
      // The request is made from `agent.state` as runAgent begins, in this same tick: it carries the person's edits.
      options.sharedState.sending();
      await agent.runAgent(parameters, options.subscriber);
      end = takeRunEnd();
    } catch (error) {
      setState({ error: errorJson(error) });
      return { taken: startedRunId === requestedRunId };
    } finally {
      options.sharedState.ended(started);
      showInterrupts(agent, runner, store);
      setState({ running: false });
    }
    if (resume) options.answers.clear();
    if (end?.outcome === "cancelled") markStopped(before);
    // The same result again (another window acted on it first): nothing here is this page's to report.
    if (agent.repeatOf) return { taken: true };
    const runId = end?.runId || requestedRunId;
    if (end?.pending.length) return { taken: true, owed: { runId, toolCallIds: end.pending, continueRun: true } };
    // Ended with a question, an error or a cancel: what this page did meanwhile is still owed, and goes with the next run.
    const owed = end && end.outcome !== "success" ? runner.performedWithoutResult(runId) : [];
    return owed.length > 0 ? { taken: true, owed: { runId, toolCallIds: owed, continueRun: false } } : { taken: true };
  };

  const report = async (parentRunId: string, toolCallIds: string[], { continueRun = true } = {}): Promise<void> => {
    reporting++;
    try {
      for (let owed: StreamedRun["owed"] = { runId: parentRunId, toolCallIds, continueRun }; owed;) {
        const continuation = await outcomes.report(owed.runId, owed.toolCallIds, { continueRun: owed.continueRun });
        owed = continuation ? (await stream(continuation)).owed : undefined;
      }
    } finally {
      reporting--;
    }
  };

  const start = async (trigger: Trigger, resume?: ResumeEntry[], forwarded?: Record<string, unknown>): Promise<boolean> => {
    options.sharedState.clearConflicts(); // the person moved on: what they were told is behind them
    const run = await stream(trigger, resume, forwarded);
    if (run.owed) await report(run.owed.runId, run.owed.toolCallIds, { continueRun: run.owed.continueRun });
    return run.taken;
  };

  const follow = async (): Promise<FollowedRun | undefined> => {
    let finished: FollowedRun | undefined;
    setState({ running: true, observing: true });
    takeRunEnd();
    options.sharedState.following();
    try {
      await agent.connectAgent({}, options.subscriber);
      const end = takeRunEnd();
      if (end) finished = { runId: end.runId, pending: end.pending };
    } catch (error) {
      setState({ error: errorJson(error) });
    } finally {
      options.sharedState.ended(true); // a followed run carried none of this page's edits: they wait for its next request
      showInterrupts(agent, runner, store);
      setState({ running: false, observing: false });
    }
    return finished;
  };

  return {
    read,
    start: (trigger, resume) => start(trigger, resume),
    follow,
    report,

    async answer(interruptId, response) {
      if (store.get().running) throw new TetherError("run_in_progress", "Wait for the current answer before answering the approval.");
      const given = options.answers.give(interruptId, response);
      if (!given) return; // the rest are still open
      const { runId } = store.get();
      await start({ kind: "resume", ...(runId ? { parentRunId: runId } : {}), interruptIds: given.interruptIds }, given.resume);
    },

    async act(action) {
      if (store.get().running) throw new TetherError("run_in_progress", "Wait for the current answer, or stop it, before using the assistant's view.");
      // The middleware's and CopilotKit's field: a server that speaks A2UI reads the click from here.
      await start({ kind: "ui-action" }, options.answers.movingOn(), { a2uiAction: { userAction: action } });
    },

    reporting: () => reporting > 0,
  };
}
