import { beginRunRefusals } from "./shared/begin-run-refusals.ts";
import type { Message } from "@ag-ui/core";
import { TetherError } from "../../protocol/index.ts";
import { endedRunRefusal } from "./shared/ended-run-refusal.ts";
import { lostRunEvents } from "./shared/lost-run-events.ts";
import { closeUnaskedApprovals } from "./shared/unasked-approvals.ts";
import { NO_REPORT_CAPS, checkReportRoom, reportBytes, type ReportTotals } from "./shared/report-room.ts";
import { createMemoryRunInputs } from "./memory-run-inputs.ts";
import type { AgentState, PendingToolCall, StoredRun, RunReport, RunStore, StoredEvent, StoredFact, StoredInterrupt, StoredThread } from "./port.ts";

/**
 * A store that lives and dies with the process: for tests, and for stateless
 * deployments that keep no history. Same contract as the SQLite store.
 */
export function createMemoryRunStore(options: { now?: () => Date } = {}): RunStore {
  const now = () => (options.now?.() ?? new Date()).toISOString();
  const threads = new Map<string, StoredThread>();
  const messages = new Map<string, Array<{ runId: string; message: Message; supersededBy?: string }>>();
  const pending = new Map<string, Map<string, PendingToolCall>>();
  const runs = new Map<string, StoredRun>();
  const runsByThread = new Map<string, string[]>();
  const events = new Map<string, StoredEvent[]>();
  const reports = new Map<string, RunReport[]>();
  const reportTotals = new Map<string, ReportTotals>();
  const interrupts = new Map<string, StoredInterrupt>();
  const facts = new Map<string, StoredFact[]>();
  const inputs = createMemoryRunInputs();
  // Values are cloned in and out, as a database would, so callers never share state with the store.
  const copy = <T>(value: T): T => structuredClone(value);

  const pendingOf = (threadId: string) => {
    let calls = pending.get(threadId);
    if (!calls) pending.set(threadId, (calls = new Map()));
    return calls;
  };
  const appendEvents = (runId: string, added: StoredEvent[]) => {
    const log = events.get(runId) ?? [];
    events.set(runId, log);
    for (const { seq, event } of added) log.push({ seq, event: copy(event) });
  };
  /** Closes the approvals a run asked for that nobody will see, answering their calls in the thread. */
  const closeApprovalsOf = (run: StoredRun) => {
    const pendingOfThread = [...interrupts.values()].filter((stored) => stored.threadId === run.threadId && stored.status === "pending");
    for (const { interruptId, answer, result } of closeUnaskedApprovals(run.runId, pendingOfThread)) {
      interrupts.set(interruptId, { ...interrupts.get(interruptId)!, status: "cancelled", answer, resolvedByRunId: run.runId });
      messages.set(run.threadId, [...(messages.get(run.threadId) ?? []), { runId: run.runId, message: result }]);
    }
  };
  const addFacts = (runId: string, added: StoredFact[] | undefined) => {
    if (added && added.length > 0) facts.set(runId, [...(facts.get(runId) ?? []), ...added]);
  };
  /** A committed change of shared state: the thread's current value and the run's latest. */
  const setState = (run: StoredRun, state: AgentState) => {
    const thread = threads.get(run.threadId);
    if (thread) thread.state = copy(state);
    runs.set(run.runId, { ...runs.get(run.runId)!, state: copy(state) });
  };
  const activeRun = (threadId: string) => (runsByThread.get(threadId) ?? []).map((runId) => runs.get(runId)!).find((run) => run.status === "running");

  return {
    async getThread(threadId) {
      return copy(threads.get(threadId));
    },
    async getMessages(threadId, options = {}) {
      const order = runsByThread.get(threadId) ?? [];
      const before = options.beforeRunId === undefined ? undefined : new Set(order.slice(0, Math.max(0, order.indexOf(options.beforeRunId))));
      // As a run found the thread: less what it, or a run before it, set aside.
      const setAside = (stored: { supersededBy?: string }) =>
        !options.withSetAside &&
        stored.supersededBy !== undefined &&
        (!before || before.has(stored.supersededBy) || stored.supersededBy === options.beforeRunId);
      return copy(
        (messages.get(threadId) ?? [])
          .filter((stored) => stored.runId !== options.excludeRunId && (!before || before.has(stored.runId)) && !setAside(stored))
          .map((stored) => stored.message),
      );
    },
    async getMessageRun(threadId, messageId) {
      return (messages.get(threadId) ?? []).find((stored) => stored.message.id === messageId)?.runId;
    },
    async getPendingToolCalls(threadId) {
      return copy([...(pending.get(threadId)?.values() ?? [])]);
    },
    async getInterrupt(interruptId) {
      return copy(interrupts.get(interruptId));
    },
    async getPendingInterrupts(threadId) {
      return copy([...interrupts.values()].filter((stored) => stored.threadId === threadId && stored.status === "pending"));
    },
    async getRun(runId) {
      return copy(runs.get(runId));
    },
    async getActiveRun(threadId) {
      return copy(activeRun(threadId));
    },
    async listRuns(threadId) {
      return copy((runsByThread.get(threadId) ?? []).map((runId) => runs.get(runId)!));
    },
    async readRunInput(runId) {
      return inputs.read(runId);
    },
    async listRunLinks(threadId) {
      return copy(
        (runsByThread.get(threadId) ?? []).map((runId) => {
          const { parentRunId, trigger, createdAt } = runs.get(runId)!;
          return { runId, ...(parentRunId ? { parentRunId } : {}), ...(trigger ? { trigger } : {}), createdAt };
        }),
      );
    },
    async beginRun(begin) {
      const { thread, run, events: first, messages: added, resolvedToolCallIds, resolvedInterrupts = [] } = begin;
      const existing = threads.get(thread.threadId);
      if (existing && existing.ownerId !== thread.ownerId) throw beginRunRefusals.threadOfAnotherUser();
      if (runs.has(run.runId)) throw beginRunRefusals.runExists(run.runId);
      if (activeRun(thread.threadId)) {
        throw beginRunRefusals.runInProgress();
      }
      const answered = resolvedToolCallIds.find((toolCallId) => !pending.get(thread.threadId)?.has(toolCallId));
      if (answered) throw beginRunRefusals.callAnsweredMeanwhile(answered);
      for (const { interruptId } of resolvedInterrupts) {
        const known = interrupts.get(interruptId);
        if (known && known.status !== "pending") throw new TetherError("resume_conflict", `Interrupt ${interruptId} was already answered.`);
      }
      const inThread = messages.get(thread.threadId) ?? [];
      const cut = begin.supersede ? inThread.findIndex((stored) => stored.message.id === begin.supersede!.afterMessageId) : -1;
      const setAside = begin.supersede && cut >= 0 ? inThread.slice(cut + 1).filter((stored) => stored.supersededBy === undefined) : [];
      if (begin.supersede && setAside.length !== begin.supersede.count) throw beginRunRefusals.answerMovedOn(begin.supersede.afterMessageId);
      const used = new Set(inThread.map((stored) => stored.message.id));
      const reused = added.find((message) => used.has(message.id));
      if (reused) throw beginRunRefusals.messageIdUsed(reused.id);
      // Copy everything first: a value that cannot be stored must fail the call before anything is written.
      const { input, ...newRun } = copy(run);
      const storedInput = inputs.prepare(input);
      const newMessages = copy(added);
      const answers = copy(resolvedInterrupts);
      const firstEvents = first.map(({ seq, event }) => ({ seq, event: copy(event) }));
      const firstFacts = copy(begin.facts);
      const at = now();
      const state = copy(begin.state) ?? existing?.state;
      threads.set(thread.threadId, { ...(existing ?? { ...thread, createdAt: at }), updatedAt: at, ...(state ? { state } : {}) });
      runs.set(run.runId, {
        ...newRun,
        threadId: thread.threadId,
        agentId: thread.agentId,
        status: "running",
        ...(state ? { state: copy(state) } : {}),
        createdAt: at,
      });
      runsByThread.set(thread.threadId, [...(runsByThread.get(thread.threadId) ?? []), run.runId]);
      inputs.store(thread.threadId, run.runId, storedInput);
      events.set(run.runId, firstEvents);
      addFacts(run.runId, firstFacts);
      for (const stored of setAside) stored.supersededBy = run.runId;
      messages.set(thread.threadId, [...(messages.get(thread.threadId) ?? []), ...newMessages.map((message) => ({ runId: run.runId, message }))]);
      for (const toolCallId of resolvedToolCallIds) pendingOf(thread.threadId).delete(toolCallId);
      for (const { interruptId, answer, interrupt } of answers) {
        const stored = interrupts.get(interruptId) ?? interrupt;
        interrupts.set(interruptId, { ...stored, status: answer.status === "resolved" ? "resolved" : "cancelled", answer, resolvedByRunId: run.runId });
      }
    },
    async appendEvents(runId, added) {
      if (runs.get(runId)?.status === "running") appendEvents(runId, added);
    },
    async readEvents(runId, afterSeq = 0) {
      return copy((events.get(runId) ?? []).filter((event) => event.seq > afterSeq));
    },
    async getLastEvent(runId) {
      return copy(events.get(runId)?.at(-1));
    },
    async commitStep(step) {
      const run = runs.get(step.runId);
      if (run?.status !== "running") throw endedRunRefusal(step.runId, run?.status);
      const added = copy(step.messages);
      const calls = copy(step.pending);
      const stepFacts = copy(step.facts);
      const state = copy(step.state);
      for (const stored of copy(step.interrupts ?? [])) interrupts.set(stored.interrupt.id, { ...stored, status: "pending" });
      messages.set(step.threadId, [...(messages.get(step.threadId) ?? []), ...added.map((message) => ({ runId: step.runId, message }))]);
      for (const call of calls) pendingOf(step.threadId).set(call.toolCallId, call);
      addFacts(step.runId, stepFacts);
      const thread = threads.get(step.threadId);
      if (thread) thread.updatedAt = now();
      if (state) setState(run, state);
    },
    async finishRun(finish) {
      const run = runs.get(finish.runId);
      if (!run || run.status !== "running") return;
      const { runId: _runId, events: last = [], facts: lastFacts, state, ...ending } = copy(finish);
      appendEvents(finish.runId, last);
      addFacts(finish.runId, lastFacts);
      if (state) setState(run, state);
      runs.set(finish.runId, { ...runs.get(finish.runId)!, ...ending, finishedAt: now() });
      if (finish.status !== "finished") closeApprovalsOf(run);
    },
    async endLostRun(runId, ending) {
      const run = runs.get(runId);
      if (run?.status !== "running") return undefined;
      closeApprovalsOf(run);
      const thread = (messages.get(run.threadId) ?? []).filter((stored) => stored.supersededBy === undefined).map((stored) => stored.message);
      const state = copy(threads.get(run.threadId)?.state);
      const last = lostRunEvents({ runId, threadId: run.threadId, lastStoredSeq: events.get(runId)?.at(-1)?.seq ?? 0, messages: copy(thread), state }, ending);
      appendEvents(runId, last);
      runs.set(runId, { ...run, status: ending.status, error: { code: ending.code, message: ending.message }, finishedAt: now() });
      return copy(last);
    },
    async appendLog(runId, entries) {
      if (entries.length === 0) return;
      const run = runs.get(runId);
      if (!run) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
      run.log.push(...copy(entries));
    },
    async addReport(runId, report, caps = NO_REPORT_CAPS) {
      if (!runs.has(runId)) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
      const json = JSON.stringify(report) ?? "null";
      const totals = reportTotals.get(runId) ?? { count: 0, bytes: 0 };
      checkReportRoom(runId, totals, reportBytes(json), caps);
      reports.set(runId, [...(reports.get(runId) ?? []), { receivedAt: now(), report: copy(report) }]);
      reportTotals.set(runId, { count: totals.count + 1, bytes: totals.bytes + reportBytes(json) });
    },
    async listReports(runId) {
      return copy(reports.get(runId) ?? []);
    },
    async listFacts(runId) {
      return copy(facts.get(runId) ?? []);
    },
    async appendFacts(runId, added) {
      if (!runs.has(runId)) throw new TetherError("run_not_found", `Run ${runId} does not exist.`);
      addFacts(runId, copy(added));
    },
    async recoverInterruptedRuns() {
      return 0;
    },
    async close() {},
  };
}
