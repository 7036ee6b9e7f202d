import { buildResumeArray, randomUUID, type AgentSubscriber, type HttpAgentFetchFn } from "@ag-ui/client";
import { EventType, type BaseEvent, type Message, type ResumeEntry, type ToolMessage } from "@ag-ui/core";
import { TetherError, isTetherError, readWelcome, toAgUiTool, type Trigger } from "../protocol/index.ts";
import { createCallJournal } from "./call-journal.ts";
import { createCapabilitiesLoader } from "./capabilities.ts";
import { checkAgainstServer, type DriftReport } from "./drift.ts";
import type { AgentSession, AgentSessionOptions, SessionState } from "./agent-session.ts";
import { errorJson, isRetryable } from "./errors.ts";
import { loadThread as readThread } from "./load-thread.ts";
import { owedCalls } from "./owed-calls.ts";
import { regenerateCut } from "./regenerate-cut.ts";
import { createRunCancel } from "./run-cancel.ts";
import { createRunEventReader, type RunEnd } from "./run-event-reader.ts";
import { sessionRoutes } from "./session-routes.ts";
import { TetherHttpAgent } from "./tether-agent.ts";
import { SURFACE_MESSAGE_PREFIX } from "./surface-activity.ts";
import { createToolRegistry } from "./tool-registry.ts";
import { openThreadChannel } from "./thread-channel.ts";
import { createThreadFollower } from "./thread-follower.ts";
import { createToolRunner } from "./tool-runner.ts";

const MOVED_ON = "The conversation moved on in another window, so that answer stays; this is the conversation as it is now.";
const WAITS_FOR_APPROVAL = "The conversation moved on in another window and now waits for an approval, shown here.";

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
  const listeners = new Set<() => void>();
  let state: SessionState = {
    threadId,
    messages: [],
    activities: [],
    running: false,
    observing: false,
    mode: options.mode ?? "side",
    interrupts: [],
    stoppedMessageIds: [],
  };
  const answers = new Map<string, ResumeEntry>();
  let driftChecked: Promise<DriftReport> | undefined;
  const capabilities = routes.capabilities ? createCapabilitiesLoader(routes.capabilities, doFetch, headers) : undefined;

  // The state changes at once; listeners hear of it at most once a frame, however many tokens arrived.
  let notifying = false;
  const notify = () => {
    notifying = false;
    for (const listener of listeners) listener();
  };
  const setState = (patch: Partial<SessionState>) => {
    state = { ...state, ...patch };
    if (notifying) return;
    notifying = true;
    if (typeof requestAnimationFrame === "function") requestAnimationFrame(notify);
    else setTimeout(notify, 0);
  };
  // Instrumentation, kept on the session: the TOOL_CALL_END being read right now, when someone measures dispatch.
  let endArrival: { toolCallId: string; at: number } | undefined;
  const onToolDispatch = options.onToolDispatch;
  const runner = createToolRunner({
    registry,
    journal,
    threadId,
    mode: () => state.mode,
    onChange: () => setState({ activities: runner.activities() }),
    ...(onToolDispatch
      ? {
          onDispatch: (call: { toolCallId: string; toolName: string; runId: string }) => {
            if (endArrival?.toolCallId !== call.toolCallId) return; // dispatched later than its END (an approval came): not a dispatch latency
            onToolDispatch({
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              runId: call.runId,
              endArrivedAt: endArrival.at,
              dispatchedAt: performance.now(),
            });
          },
        }
      : {}),
  });

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
    isCurrent: (runId) => state.running && state.runId === runId,
    onError: (error) => setState({ error }),
  });
  const readEvent = createRunEventReader({
    journal,
    runner,
    onRunStarted: (runId) => {
      startedRunId = runId;
      // A run this tab started before a reload is still its own to stop (it only watches its events: they were acted on).
      setState({ runId, ...(state.observing && journal.owns(runId) ? { observing: false } : {}) });
      if (!state.observing) {
        channel?.announce(runId);
        heldResults.clear(); // its request carried them (or, regenerating, set their calls aside)
      }
      stop.started(runId);
    },
    onRunEnded: (end) => {
      runEnd = end;
      if (end.error) setState({ error: errorJson(end.error) });
    },
  });
  const onWireEvent = (event: BaseEvent, live: boolean) => {
    if (onToolDispatch && event.type === EventType.TOOL_CALL_END)
      endArrival = { toolCallId: (event as unknown as { toolCallId: string }).toolCallId, at: performance.now() };
    readEvent(event, live);
    endArrival = undefined;
  };
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
    onEvent: onWireEvent,
  });
  const messagesSubscriber: AgentSubscriber = { onMessagesChanged: ({ messages }) => setState({ messages: [...messages] }) };

  /** Runs the agent once; false when the server never started the run (refused it, or was not reached). */
  const runOnce = async (trigger: Trigger, resume?: ResumeEntry[], forwarded: Record<string, unknown> = {}): Promise<boolean> => {
    // A message the server never took stays out of every other run (a click, an answer, a report): only Retry sends it.
    dropUnsent();
    const requestedRunId = randomUUID();
    journal.ownRun(requestedRunId);
    setState({ running: true, observing: false, runId: requestedRunId, error: undefined });
    takeRunEnd();
    const before = new Set(agent.messages.map((message) => message.id));
    let end: RunEnd | undefined;
    try {
      await agent.runAgent(
        {
          runId: requestedRunId,
          tools: registry.list().map((handler) => toAgUiTool(handler.spec)),
          ...(options.context ? { context: options.context() } : {}),
          forwardedProps: { ...forwarded, tether: { trigger } },
          ...(resume ? { resume } : {}),
        },
        messagesSubscriber,
      );
      end = takeRunEnd();
    } catch (error) {
      setState({ error: errorJson(error) });
      return startedRunId === requestedRunId;
    } finally {
      showInterrupts();
      setState({ running: false });
    }
    if (resume) answers.clear();
    if (end?.outcome === "cancelled") markStopped(before);
    // The same result again (another window acted on it first): nothing here is this page's to report.
    if (agent.repeatOf) return true;
    const runId = end?.runId || requestedRunId;
    if (end?.pending.length) {
      await report(runId, end.pending);
      return true;
    }
    // Ended with a question, an error or a cancel: what this page did meanwhile is still owed, and goes with the next run.
    const owed = end && end.outcome !== "success" ? runner.performedWithoutResult(runId) : [];
    if (owed.length > 0) await report(runId, owed, { continueRun: false });
    return true;
  };

  /** A stopped run's answer so far is marked stopped; with none begun, the message it stopped after. */
  const markStopped = (before: Set<string>) => {
    const answered = agent.messages.filter((message) => !before.has(message.id) && message.role === "assistant" && message.content);
    const asked = agent.messages.at(-1)?.role === "user" ? [agent.messages.at(-1)!.id] : [];
    const marked = answered.length > 0 ? answered.map((message) => message.id) : asked;
    setState({ stoppedMessageIds: [...state.stoppedMessageIds, ...marked] });
  };

  /** A message the server never took leaves the conversation when the next one is sent (or it is sent again). */
  const dropUnsent = () => {
    const unsent = state.unsent;
    if (!unsent) return;
    agent.setMessages(agent.messages.filter((message) => message.id !== unsent.messageId));
    setState({ unsent: undefined, messages: [...agent.messages] });
  };

  /**
   * This tab was behind: another window's run asked for an approval it never saw, or changed the conversation (a
   * regenerated answer). The thread is loaded again, so what happened shows here, and the message waits in words,
   * not with the server's ids.
   */
  const catchUp = async (message: Message, refusal: { code: string; message: string }): Promise<void> => {
    const seen = agent.messages.filter((known) => known.id !== message.id).map((known) => known.id);
    // Another agent's thread under this id is not this conversation moved on: nothing of it is loaded here.
    const theirs = options.agentId !== undefined && (await loadThread().catch(() => undefined))?.agentId !== options.agentId;
    if (!theirs) {
      await restore();
      agent.addMessage(message);
    }
    // A conflict the thread as it now is does not explain is the server's to word, and sending it again will not help.
    const changed = !theirs && JSON.stringify(seen) !== JSON.stringify(agent.messages.slice(0, -1).map((known) => known.id));
    const words =
      refusal.code === "interrupt_pending"
        ? "The conversation moved on in another window and now waits for an approval, shown here. Answer it, or send this again to move on without it."
        : changed
          ? "The conversation changed in another window; it is shown here as it is now. Send this again to go on."
          : refusal.message;
    setState({
      messages: [...agent.messages],
      error: undefined,
      unsent: {
        messageId: message.id,
        text: String(message.content),
        error: { code: refusal.code, message: words },
        retryable: refusal.code === "interrupt_pending" || changed,
      },
    });
  };

  // Set before the first await of a send, so a second click cannot start another while the first checks drift.
  let sending = false;
  const send = async (text: string): Promise<void> => {
    if (state.running || sending) throw new TetherError("run_in_progress", "Wait for the current answer, or stop it, before sending another message.");
    sending = true;
    try {
      try {
        if (options.drift !== "ignore") await checkDrift();
      } catch (error) {
        driftChecked = undefined;
        if (isTetherError(error) && options.drift === "throw") {
          setState({ error: errorJson(error) });
          throw error;
        }
      }
      dropUnsent();
      const message = { id: randomUUID(), role: "user" as const, content: text };
      agent.addMessage(message);
      setState({ messages: [...agent.messages] }); // in the log at once, while it is on its way
      if (await runOnce({ kind: "user-message" }, movingOn())) return;
      if (state.error?.code === "interrupt_pending" || state.error?.code === "history_conflict") return await catchUp(message, state.error);
      const error = state.error ?? { code: "internal", message: "The message was not sent." };
      setState({ messages: [...agent.messages], unsent: { messageId: message.id, text, error, retryable: isRetryable(error.code) } });
    } finally {
      sending = false;
    }
  };

  // Outcomes this page holds for the next run, by message id, with their tool's kind: not the server's yet. A render-only
  // call is set aside with the words around it; a follow-up's outcome (a screen opened, its run then failed) must reach
  // the model first, so Regenerate waits for the next message to carry it.
  const heldResults = new Map<string, "follow-up" | "render-only">();
  // Browser calls being carried out and reported: the answer is not finished, so there is nothing to regenerate yet.
  let settling = 0;
  const regenerable = () =>
    state.running || sending || settling > 0 || state.interrupts.length > 0 || state.unsent || [...heldResults.values()].includes("follow-up")
      ? undefined
      : regenerateCut(agent.messages, new Set(heldResults.keys()));

  const regenerate = async (): Promise<void> => {
    if (state.running || sending || settling > 0)
      throw new TetherError("run_in_progress", "Wait for the current answer, or stop it, before asking for another.");
    if (state.interrupts.length > 0) throw new TetherError("interrupt_pending", "Answer the approval first: the answer waits for it.");
    const cut = regenerable();
    if (!cut) throw new TetherError("history_conflict", "There is no answer to give again.");
    sending = true;
    const previous = agent.messages;
    try {
      agent.setMessages(cut.keep);
      setState({ messages: [...agent.messages] }); // the old words go at once; the server's snapshot confirms what stays
      if (await runOnce({ kind: "regenerate", messageId: cut.questionId })) return;
      // Not taken: the answer stands. A thread that moved on elsewhere (or is answering there) is loaded as it now is.
      agent.setMessages(previous);
      setState({ messages: [...previous] });
      const code = state.error?.code;
      if (code !== "history_conflict" && code !== "run_in_progress" && code !== "interrupt_pending") return;
      await restore();
      setState({ error: code === "run_in_progress" ? undefined : { code, message: code === "history_conflict" ? MOVED_ON : WAITS_FOR_APPROVAL } });
    } finally {
      sending = false;
    }
  };

  /** The agent's open questions, in the state and on the timeline. */
  const showInterrupts = () => {
    const open = [...agent.pendingInterrupts];
    runner.markAwaiting(open.flatMap((interrupt) => (interrupt.toolCallId ? [interrupt.toolCallId] : [])));
    setState({ interrupts: open });
  };

  /** Tells the run's record what the page saw; a report that cannot be sent must not break the page. */
  const postReport = (runId: string, report: Record<string, unknown>): Promise<unknown> =>
    doFetch(`${routes.api}/runs/${encodeURIComponent(runId)}/reports`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify(report),
    }).catch(() => {});

  /** Sends the outcomes of a run's browser calls; follow-up tools continue the run at once. */
  const report = async (parentRunId: string, toolCallIds: string[], { continueRun = true } = {}): Promise<void> => {
    settling++;
    try {
      await reportSettled(parentRunId, toolCallIds, continueRun);
    } finally {
      settling--;
    }
  };
  const reportSettled = async (parentRunId: string, toolCallIds: string[], continueRun: boolean): Promise<void> => {
    const settled = await runner.settle(toolCallIds);
    const messages: ToolMessage[] = settled.map((call) => ({
      id: randomUUID(),
      role: "tool",
      toolCallId: call.toolCallId,
      content: JSON.stringify(call.outcome),
    }));
    // Reported before a reload (a render-only outcome whose message waited for the next run): its message goes again, its report does not.
    const reportedBefore = new Set(toolCallIds.filter((toolCallId) => journal.get(toolCallId)?.reported));
    agent.addMessages(messages);
    journal.markReported(toolCallIds);
    for (const call of routes.api ? settled.filter((call) => call.kind === "render-only" && !reportedBefore.has(call.toolCallId)) : []) {
      // Render-only outcomes also go to the run record now; their tool message rides with the next run.
      void postReport(parentRunId, { kind: "tool-outcome", toolCallId: call.toolCallId, toolName: call.toolName, outcome: call.outcome });
    }
    const followUps = settled.filter((call) => call.kind === "follow-up").map((call) => call.toolCallId);
    if (followUps.length === 0 || !continueRun) settled.forEach((call, index) => heldResults.set(messages[index]!.id, call.kind));
    if (followUps.length > 0 && continueRun) await runOnce({ kind: "tool-result", parentRunId, toolCallIds: settled.map((call) => call.toolCallId) });
  };

  const checkDrift = () =>
    (driftChecked ??= checkAgainstServer({
      capabilities,
      handlers: registry.list(),
      agentId: options.agentId ?? "",
      onDrift: options.drift ?? "warn",
    }));

  const loadThread = () => readThread(routes.thread, doFetch, headers);
  // The thread's latest run as last loaded: after a reload, what a surface's renderer error is reported on when its own run is unknown.
  let lastRunId: string | undefined;

  /** Moving on answers what is still open: cancelled, so nothing runs that nobody approved. */
  const movingOn = (): ResumeEntry[] | undefined => {
    const open = agent.pendingInterrupts;
    return open.length > 0 ? open.map((interrupt): ResumeEntry => answers.get(interrupt.id) ?? { interruptId: interrupt.id, status: "cancelled" }) : undefined;
  };

  const follower = createThreadFollower({
    agent,
    subscriber: messagesSubscriber,
    load: loadThread,
    setState,
    takeRunEnd,
    showInterrupts,
    restoreCalls: (messages) => runner.restore(messages),
  });

  /** Loads the thread, follows its active runs without acting on them, then answers what this tab still owes. */
  const restore = async (): Promise<void> => {
    heldResults.clear(); // the stored thread replaces what this page held
    try {
      const followed = await follower.follow();
      if (!followed) return;
      const { thread, latest, last } = followed;
      lastRunId = thread.runs?.at(-1)?.runId;
      // Calls this tab started before the reload are answered by this tab, and only by it.
      const owed = latest ? owedCalls(latest, journal.owns) : [];
      if (owed.length > 0)
        await report(
          last?.runId ?? owed[0]!.runId,
          owed.map((call) => call.toolCallId),
        );
    } catch (error) {
      setState({ error: errorJson(error) });
    }
  };

  // Another tab of this thread started a run: an idle tab follows it (a busy one sees the thread when it is done).
  const channel = openThreadChannel(threadId, () => {
    if (!state.running && !sending) void restore();
  });

  return {
    threadId,
    registry,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    registerTool: (handler) => registry.register(handler),
    setMode: (mode) => setState({ mode }),

    async answer(interruptId, response) {
      if (state.running) throw new TetherError("run_in_progress", "Wait for the current answer before answering the approval.");
      const open = agent.pendingInterrupts;
      if (!open.some((interrupt) => interrupt.id === interruptId))
        throw new TetherError("interrupt_unknown", `Nothing is waiting for an answer to ${interruptId}.`);
      answers.set(interruptId, response === "cancel" ? { interruptId, status: "cancelled" } : { interruptId, status: "resolved", payload: response });
      if (open.some((interrupt) => !answers.has(interrupt.id))) return; // the rest are still open
      const resume = buildResumeArray(open, Object.fromEntries([...answers].map(([id, entry]) => [id, entry])));
      await runOnce({ kind: "resume", ...(state.runId ? { parentRunId: state.runId } : {}), interruptIds: open.map((interrupt) => interrupt.id) }, resume);
    },

    send,

    async retry() {
      if (state.unsent) await send(state.unsent.text);
    },

    regenerate,

    regenerableAnswer: () => regenerable()?.answerId,

    async act(action) {
      if (state.running) throw new TetherError("run_in_progress", "Wait for the current answer, or stop it, before using the assistant's view.");
      // The middleware's and CopilotKit's field: a server that speaks A2UI reads the click from here.
      await runOnce({ kind: "ui-action" }, movingOn(), { a2uiAction: { userAction: action } });
    },

    async reportRendererError(report) {
      if (!routes.api) return;
      const toolCallId = report.activityMessageId?.startsWith(SURFACE_MESSAGE_PREFIX)
        ? report.activityMessageId.slice(SURFACE_MESSAGE_PREFIX.length)
        : undefined;
      const runId = runner.activities().find((activity) => activity.toolCallId === toolCallId)?.runId || lastRunId || state.runId;
      if (!runId) return;
      await postReport(runId, {
        kind: "renderer-error",
        ...(report.surfaceId ? { surfaceId: report.surfaceId.slice(0, 128) } : {}),
        message: report.message.slice(0, 4000),
        ...(report.details !== undefined ? { details: report.details } : {}),
      });
    },

    async cancel() {
      if (!state.runId || !state.running) return;
      if (!routes.api) return agent.abortRun(); // a plain server has no cancel route: stop listening
      await stop.request(state.runId);
    },

    restore,

    checkDrift,

    async welcome() {
      return capabilities ? readWelcome(await capabilities().catch(() => undefined)) : undefined;
    },
  };
}
