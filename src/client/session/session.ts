import { randomUUID, type AgentSubscriber, type HttpAgentFetchFn } from "@ag-ui/client";
import { readWelcome } from "../../protocol/index.ts";
import { checkAgainstServer, type DriftReport } from "../drift.ts";
import { createCallJournal, createToolRegistry, createToolRunner } from "../tools/index.ts";
import { TetherHttpAgent } from "../transport/index.ts";
import { createCapabilitiesLoader } from "./capabilities.ts";
import { createInterruptAnswers } from "./interrupt-answers.ts";
import { loadThread } from "./load-thread.ts";
import { createMessageSender } from "./message-sender.ts";
import { createOutcomeReporter } from "./outcome-reporter.ts";
import { readRunEvents } from "./read-run-events.ts";
import { rendererErrorReport } from "./renderer-error-report.ts";
import { createRunCancel } from "./run-cancel.ts";
import { createRunController } from "./run-controller.ts";
import { createSessionRestore } from "./session-restore.ts";
import { sessionRoutes } from "./session-routes.ts";
import { createSessionStore } from "./session-store.ts";
import { createSessionSharedState } from "./shared-state.ts";
import type { AgentSession, AgentSessionOptions } from "./session-types.ts";
import { openThreadChannel } from "./thread-channel.ts";
import { createThreadFollower } from "./thread-follower.ts";
import { createToolDispatchTiming } from "./tool-dispatch-timing.ts";

/**
 * A conversation with one agent on one thread, in the browser: declares the
 * registered tools with every run, executes each browser call exactly once at
 * its TOOL_CALL_END, reports honest outcomes, and starts the continuation run
 * for follow-up tools.
 *
 * The parts are made in the order they depend on each other, and nothing
 * calls a part made after it: the agent is the transport; the run controller
 * starts, follows and answers every run; its event reader joins the agent's
 * pipeline as middleware (`agent.use`); restore and the sender sit on top.
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
    state: {},
    stateConflicts: [],
  });
  const capabilities = routes.capabilities ? createCapabilitiesLoader(routes.capabilities, doFetch, headers) : undefined;
  const timing = options.onToolDispatch ? createToolDispatchTiming(options.onToolDispatch) : undefined;
  const runner = createToolRunner({
    registry,
    journal,
    threadId,
    mode: () => store.get().mode,
    onChange: (activities) => store.set({ activities }),
    ...(timing ? { onDispatch: timing.onDispatch } : {}),
  });
  const agent = new TetherHttpAgent({ url: routes.run, ...(routes.events ? { eventsUrl: routes.events } : {}), headers, threadId, fetch: doFetch });
  const outcomes = createOutcomeReporter({ api: routes.api, fetch: doFetch, headers, agent, journal, runner });
  const answers = createInterruptAnswers(agent);
  const cancel = createRunCancel({
    api: routes.api ?? "", // used only with a Tether server's routes: a plain server has no cancel route
    fetch: doFetch,
    headers,
    isCurrent: (runId) => store.get().running && store.get().runId === runId,
    onError: (error) => store.set({ error }),
  });
  const channel = openThreadChannel(threadId);
  const sharedState = createSessionSharedState({ agent, store });
  const subscriber: AgentSubscriber = { ...sharedState.subscriber, onMessagesChanged: ({ messages }) => store.set({ messages: [...messages] }) };
  const runs = createRunController({
    agent,
    store,
    journal,
    registry,
    runner,
    subscriber,
    sessionOptions: options,
    answers,
    outcomes,
    cancel,
    channel,
    sharedState,
  });
  agent.use(readRunEvents(agent, timing ? timing.reading(runs.read) : runs.read));

  let driftChecked: Promise<DriftReport> | undefined;
  const checkDrift = () =>
    (driftChecked ??= checkAgainstServer({ capabilities, handlers: registry.list(), agentId: options.agentId ?? "", onDrift: options.drift ?? "warn" }));
  const load = () => loadThread(routes.thread, doFetch, headers);
  const follower = createThreadFollower({ agent, store, load, runs, runner, sharedState });
  const restore = createSessionRestore({ follower, journal, outcomes, runs, setState: store.set });
  const sender = createMessageSender({
    agent,
    store,
    sessionOptions: options,
    load,
    checkDrift,
    forgetDrift: () => (driftChecked = undefined),
    runs,
    answers,
    sessionRestore: restore,
    outcomes,
  });
  // Another tab of this thread started a run: an idle tab follows it (a busy one sees the thread when it is done).
  channel?.onRunElsewhere(() => {
    if (!store.get().running && !sender.sending()) void restore.restore();
  });

  return {
    threadId,
    registry,
    getState: store.get,
    subscribe: store.subscribe,
    registerTool: (handler) => registry.register(handler),
    setMode: (mode) => store.set({ mode }),
    setState: sharedState.set,
    answer: runs.answer,
    send: sender.send,
    async retry() {
      const { unsent } = store.get();
      if (unsent) await sender.send(unsent.text);
    },
    regenerate: sender.regenerate,
    regenerableAnswer: () => sender.regenerable()?.answerId,
    act: runs.act,
    async reportRendererError(report) {
      if (!routes.api) return;
      const { toolCallId, body } = rendererErrorReport(report);
      const runId = runner.activities().find((activity) => activity.toolCallId === toolCallId)?.runId || restore.lastRunId() || store.get().runId;
      if (runId) await outcomes.postReport(runId, body);
    },
    async cancel() {
      const { runId, running } = store.get();
      if (!runId || !running) return;
      if (!routes.api) return agent.abortRun(); // a plain server has no cancel route: stop listening
      await cancel.request(runId);
    },
    async restore() {
      // Following the thread's runs while this tab's own run streams would read that run as only followed, and leave its calls unrun.
      const { running, observing } = store.get();
      if ((running && !observing) || sender.sending()) return;
      await restore.restore();
    },
    checkDrift,
    async welcome() {
      return capabilities ? readWelcome(await capabilities().catch(() => undefined)) : undefined;
    },
  };
}
