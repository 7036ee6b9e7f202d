import { randomUUID, type AgentSubscriber, type HttpAgentFetchFn } from "@ag-ui/client";
import { TetherError, readWelcome } from "../protocol/index.ts";
import { createCallJournal } from "./call-journal.ts";
import { createCapabilitiesLoader } from "./capabilities.ts";
import { checkAgainstServer, type DriftReport } from "./drift.ts";
import type { AgentSession, AgentSessionOptions } from "./agent-session.ts";
import { errorJson } from "./errors.ts";
import { createInterruptAnswers } from "./interrupt-answers.ts";
import { loadThread as readThread } from "./load-thread.ts";
import { createMessageSender } from "./message-sender.ts";
import { createOutcomeReporter } from "./outcome-reporter.ts";
import { createRunCancel } from "./run-cancel.ts";
import { createRunEventReader, type RunEnd } from "./run-event-reader.ts";
import { createRunOnce } from "./run-once.ts";
import { createSessionRestore } from "./session-restore.ts";
import { sessionRoutes } from "./session-routes.ts";
import { createSessionStore } from "./session-store.ts";
import { TetherHttpAgent } from "./tether-agent.ts";
import { SURFACE_MESSAGE_PREFIX } from "./surface-activity.ts";
import { createToolRegistry } from "./tool-registry.ts";
import { openThreadChannel } from "./thread-channel.ts";
import { createThreadFollower } from "./thread-follower.ts";
import { createToolDispatchTiming } from "./tool-dispatch-timing.ts";
import { createToolRunner } from "./tool-runner.ts";

/**
 * A conversation with one agent on one thread, in the browser: declares the
 * registered tools with every run, executes each browser call exactly once at
 * its TOOL_CALL_END, reports honest outcomes, and starts the continuation run
 * for follow-up tools.
 *
 * @example
 * const session = createAgentSession({ api: "/api", agentId: "workdesk" });
 * session.registerTool({ spec: navigateToScreen, execute: (args) => navigate(args.screenId) });
 * await session.send("open the work request list");
 */
export function createAgentSession(options: AgentSessionOptions): AgentSession {
  const threadId = options.threadId ?? randomUUID();
  const routes = sessionRoutes(options, threadId);
  const doFetch: HttpAgentFetchFn = options.fetch ?? ((url, init) => fetch(url, init));
  const headers = options.headers ?? {};
  const registry = createToolRegistry();
  const journal = createCallJournal(threadId, options.storage);
  const store = createSessionStore({
    threadId,
    messages: [],
    activities: [],
    running: false,
    observing: false,
    mode: options.mode ?? "side",
    interrupts: [],
    stoppedMessageIds: [],
  });
  const { get: getState, set: setState } = store;
  let driftChecked: Promise<DriftReport> | undefined;
  const capabilities = routes.capabilities ? createCapabilitiesLoader(routes.capabilities, doFetch, headers) : undefined;
  const timing = options.onToolDispatch ? createToolDispatchTiming(options.onToolDispatch) : undefined;
  const runner = createToolRunner({
    registry,
    journal,
    threadId,
    mode: () => getState().mode,
    onChange: () => setState({ activities: runner.activities() }),
    ...(timing ? { onDispatch: timing.onDispatch } : {}),
  });

  // The parts call each other in a loop (a run's start tells the reporter and the tab channel, a follow-up's outcome
  // starts the next run), so some are reached through arrows to names made further down: none of them is called
  // before a run's events arrive, long after this function has returned.
  //
  // One event path. Every event is read once, by `readEvent`, as it arrives
  // off the wire (TetherHttpAgent's onEvent, called by eventStream before the
  // reference pipeline gets the event): browser tools must act within
  // milliseconds of their TOOL_CALL_END, and the reference pipeline applies
  // events asynchronously, one awaited step after another. The run's id, its
  // end, its error and its pending calls come from this path too. The
  // reference pipeline is kept for what it is the reference for and derives
  // from the same stream: the messages (onMessagesChanged) and the open
  // interrupts (agent.pendingInterrupts); it interprets nothing for us.
  let runEnd: RunEnd | undefined;
  let startedRunId: string | undefined;
  const stop = createRunCancel({
    api: routes.api ?? "", // used only with a Tether server's routes: a plain server has no cancel route

    fetch: doFetch,
    headers,
    isCurrent: (runId) => getState().running && getState().runId === runId,
    onError: (error) => setState({ error }),
  });
  const readEvent = createRunEventReader({
    journal,
    runner,
    onRunStarted: (runId) => {
      startedRunId = runId;
      // A run this tab started before a reload is still its own to stop (it only watches its events: they were acted on).
      setState({ runId, ...(getState().observing && journal.owns(runId) ? { observing: false } : {}) });
      if (!getState().observing) {
        channel?.announce(runId);
        reporter.clearHeld(); // its request carried them (or, regenerating, set their calls aside)
      }
      stop.started(runId);
    },
    onRunEnded: (end) => {
      runEnd = end;
      if (end.error) setState({ error: errorJson(end.error) });
    },
  });
  /** The end of the run just streamed, taken once. */
  const takeRunEnd = (): RunEnd | undefined => {
    const end = runEnd;
    runEnd = undefined;
    return end;
  };
  const agent = new TetherHttpAgent({
    url: routes.run,
    ...(routes.events ? { eventsUrl: routes.events } : {}),
    headers,
    threadId,
    fetch: doFetch,
    onEvent: timing ? timing.reading(readEvent) : readEvent,
  });
  const messagesSubscriber: AgentSubscriber = { onMessagesChanged: ({ messages }) => setState({ messages: [...messages] }) };
  const answers = createInterruptAnswers(agent);
  const reporter = createOutcomeReporter({
    api: routes.api,
    fetch: doFetch,
    headers,
    agent,
    journal,
    runner,
    continueRun: (trigger) => runOnce(trigger),
  });

  /** The agent's open questions, in the state and on the timeline. */
  const showInterrupts = () => {
    const open = [...agent.pendingInterrupts];
    runner.markAwaiting(open.flatMap((interrupt) => (interrupt.toolCallId ? [interrupt.toolCallId] : [])));
    setState({ interrupts: open });
  };

  const runOnce = createRunOnce({
    agent,
    store,
    journal,
    registry,
    runner,
    subscriber: messagesSubscriber,
    sessionOptions: options,
    takeRunEnd,
    startedRunId: () => startedRunId,
    showInterrupts,
    answers,
    reporter,
  });

  const checkDrift = () =>
    (driftChecked ??= checkAgainstServer({
      capabilities,
      handlers: registry.list(),
      agentId: options.agentId ?? "",
      onDrift: options.drift ?? "warn",
    }));

  const loadThread = () => readThread(routes.thread, doFetch, headers);

  const follower = createThreadFollower({
    agent,
    subscriber: messagesSubscriber,
    load: loadThread,
    setState,
    takeRunEnd,
    showInterrupts,
    restoreCalls: (messages) => runner.restore(messages),
  });

  const sessionRestore = createSessionRestore({ follower, journal, reporter, setState });
  const sender = createMessageSender({
    agent,
    store,
    sessionOptions: options,
    load: loadThread,
    checkDrift,
    forgetDrift: () => (driftChecked = undefined),
    runOnce,
    answers,
    sessionRestore,
    reporter,
  });

  // Another tab of this thread started a run: an idle tab follows it (a busy one sees the thread when it is done).
  const channel = openThreadChannel(threadId, () => {
    if (!getState().running && !sender.sending()) void sessionRestore.restore();
  });

  return {
    threadId,
    registry,
    getState,
    subscribe: store.subscribe,
    registerTool: (handler) => registry.register(handler),
    setMode: (mode) => setState({ mode }),

    async answer(interruptId, response) {
      if (getState().running) throw new TetherError("run_in_progress", "Wait for the current answer before answering the approval.");
      const given = answers.give(interruptId, response);
      if (!given) return; // the rest are still open
      const { runId } = getState();
      await runOnce({ kind: "resume", ...(runId ? { parentRunId: runId } : {}), interruptIds: given.interruptIds }, given.resume);
    },

    send: sender.send,

    async retry() {
      const { unsent } = getState();
      if (unsent) await sender.send(unsent.text);
    },

    regenerate: sender.regenerate,

    regenerableAnswer: () => sender.regenerable()?.answerId,

    async act(action) {
      if (getState().running) throw new TetherError("run_in_progress", "Wait for the current answer, or stop it, before using the assistant's view.");
      // The middleware's and CopilotKit's field: a server that speaks A2UI reads the click from here.
      await runOnce({ kind: "ui-action" }, answers.movingOn(), { a2uiAction: { userAction: action } });
    },

    async reportRendererError(report) {
      if (!routes.api) return;
      const toolCallId = report.activityMessageId?.startsWith(SURFACE_MESSAGE_PREFIX)
        ? report.activityMessageId.slice(SURFACE_MESSAGE_PREFIX.length)
        : undefined;
      const runId = runner.activities().find((activity) => activity.toolCallId === toolCallId)?.runId || sessionRestore.lastRunId() || getState().runId;
      if (!runId) return;
      await reporter.postReport(runId, {
        kind: "renderer-error",
        ...(report.surfaceId ? { surfaceId: report.surfaceId.slice(0, 128) } : {}),
        message: report.message.slice(0, 4000),
        ...(report.details !== undefined ? { details: report.details } : {}),
      });
    },

    async cancel() {
      const { runId, running } = getState();
      if (!runId || !running) return;
      if (!routes.api) return agent.abortRun(); // a plain server has no cancel route: stop listening
      await stop.request(runId);
    },

    restore: sessionRestore.restore,

    checkDrift,

    async welcome() {
      return capabilities ? readWelcome(await capabilities().catch(() => undefined)) : undefined;
    },
  };
}
