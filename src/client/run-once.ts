import { randomUUID, type AgentSubscriber } from "@ag-ui/client";
import type { ResumeEntry } from "@ag-ui/core";
import { toAgUiTool, type Trigger } from "../protocol/index.ts";
import type { AgentSessionOptions } from "./agent-session.ts";
import type { CallJournal } from "./call-journal.ts";
import { dropUnsent } from "./drop-unsent.ts";
import { errorJson } from "./errors.ts";
import type { InterruptAnswers } from "./interrupt-answers.ts";
import type { OutcomeReporter } from "./outcome-reporter.ts";
import type { RunEnd } from "./run-event-reader.ts";
import type { SessionStore } from "./session-store.ts";
import type { TetherHttpAgent } from "./tether-agent.ts";
import type { ToolRegistry } from "./tool-registry.ts";
import type { ToolRunner } from "./tool-runner.ts";

/** Runs the agent once; false when the server never started the run (refused it, or was not reached). */
export type RunOnce = (trigger: Trigger, resume?: ResumeEntry[], forwarded?: Record<string, unknown>) => Promise<boolean>;

export interface RunOnceOptions {
  /** The session's agent: it streams the run and holds the conversation. */
  agent: TetherHttpAgent;
  /** The session's state: read, and changed as the run goes. */
  store: SessionStore;
  /** Owns each run this page asks for, so a reload knows whose calls they are. */
  journal: CallJournal;
  /** The browser tools declared with every run. */
  registry: ToolRegistry;
  /** Knows which calls this page performed that the server has no result for. */
  runner: ToolRunner;
  /** Keeps the session's messages in step with the reference pipeline. */
  subscriber: AgentSubscriber;
  /** The session's options, for the app's `context`, read at the start of each run. */
  sessionOptions: Pick<AgentSessionOptions, "context">;
  /** The end of the run just streamed, taken once (the session's event path reads it off the wire). */
  takeRunEnd(): RunEnd | undefined;
  /** The id of the last run whose RUN_STARTED arrived: whether the server took the run this page asked for. */
  startedRunId(): string | undefined;
  /** Shows the agent's open questions once a run ends. */
  showInterrupts(): void;
  /** The answers a resume run carries, forgotten once it has. */
  answers: InterruptAnswers;
  /** Reports the outcomes of the run's browser calls. */
  reporter: OutcomeReporter;
}

/** Every run a session starts goes through this: a message, an answer, a click, a tool's result, a regenerate. */
export function createRunOnce(options: RunOnceOptions): RunOnce {
  const { agent, store, journal, reporter, sessionOptions } = options;
  const setState = store.set;

  /** A stopped run's answer so far is marked stopped; with none begun, the message it stopped after. */
  const markStopped = (before: Set<string>) => {
    const answered = agent.messages.filter((message) => !before.has(message.id) && message.role === "assistant" && message.content);
    const asked = agent.messages.at(-1)?.role === "user" ? [agent.messages.at(-1)!.id] : [];
    const marked = answered.length > 0 ? answered.map((message) => message.id) : asked;
    setState({ stoppedMessageIds: [...store.get().stoppedMessageIds, ...marked] });
  };

  return async (trigger, resume, forwarded = {}) => {
    // A message the server never took stays out of every other run (a click, an answer, a report): only Retry sends it.
    dropUnsent(agent, store);
    const requestedRunId = randomUUID();
    journal.ownRun(requestedRunId);
    setState({ running: true, observing: false, runId: requestedRunId, error: undefined });
    options.takeRunEnd();
    const before = new Set(agent.messages.map((message) => message.id));
    let end: RunEnd | undefined;
    try {
      await agent.runAgent(
        {
          runId: requestedRunId,
          tools: options.registry.list().map((handler) => toAgUiTool(handler.spec)),
          ...(sessionOptions.context ? { context: sessionOptions.context() } : {}),
          forwardedProps: { ...forwarded, tether: { trigger } },
          ...(resume ? { resume } : {}),
        },
        options.subscriber,
      );
      end = options.takeRunEnd();
    } catch (error) {
      setState({ error: errorJson(error) });
      return options.startedRunId() === requestedRunId;
    } finally {
      options.showInterrupts();
      setState({ running: false });
    }
    if (resume) options.answers.clear();
    if (end?.outcome === "cancelled") markStopped(before);
    // The same result again (another window acted on it first): nothing here is this page's to report.
    if (agent.repeatOf) return true;
    const runId = end?.runId || requestedRunId;
    if (end?.pending.length) {
      await reporter.report(runId, end.pending);
      return true;
    }
    // Ended with a question, an error or a cancel: what this page did meanwhile is still owed, and goes with the next run.
    const owed = end && end.outcome !== "success" ? options.runner.performedWithoutResult(runId) : [];
    if (owed.length > 0) await reporter.report(runId, owed, { continueRun: false });
    return true;
  };
}
