import { EventType, aggregateTokenUsage, type Message, type RunFinishedOutcome, type TokenUsage } from "@ag-ui/core";
import type { LanguageModelV3FunctionTool } from "@ai-sdk/provider";
import { TetherError, toTetherError } from "../../protocol/index.ts";
import { applyAnswers, createCallDecisions } from "../approvals/index.ts";
import type { PendingToolCall, StoredInterrupt } from "../store/index.ts";
import type { ToolCall } from "../tools/index.ts";
import type { NewRun } from "./prepare-run.ts";
import type { EngineConfirmation, StepResult } from "../agent/index.ts";
import { takeAgentStep } from "./agent-step.ts";
import { snapshotMessages } from "./snapshot-messages.ts";
import { settleToolCalls } from "./settle-tool-calls.ts";
import { createSurfaceLifecycle } from "../genui/surfaces/index.ts";
import { modelCallFact, type ModelCallRequest } from "./model-call-fact.ts";
import { placeResults, produced } from "./step-messages.ts";
import { callEndMetadata } from "./call-end-metadata.ts";
import { cancelledAnswer, keepPartialStep } from "./partial-step.ts";
import type { RunFact } from "../record/index.ts";
import type { RunServices } from "./run-services.ts";
import { stopReason } from "./stop-reason.ts";
import type { RecordSurfaceAttempt } from "../../protocol/index.ts";
import { createRunState, type RunState } from "../state/index.ts";

/**
 * Runs the agent: streams the model, executes server tools, and stops when
 * the model is done or only browser tools are pending. Ends with exactly one
 * RUN_FINISHED or RUN_ERROR, after the store knows how the run ended. Its
 * first events (RUN_STARTED) were stored with the run, before the loop.
 */
export async function runLoop(run: NewRun, services: RunServices): Promise<void> {
  const { agent } = run;
  const { channel, store } = services;
  const emit = channel.emit;
  const usage: TokenUsage[] = [];
  const messages = [...run.history];
  const usedToolCallIds = new Set(messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.id) : [])));
  const tools: LanguageModelV3FunctionTool[] = [...run.toolSet.tools.values()].map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    inputSchema: tool.modelParameters,
  }));
  const decide = createCallDecisions(run.toolSet.tools, run.user, run.toolSet.checker);
  // The one holder of the run's shared state: tools, the upstream and the engine change it through it.
  const state = createRunState({ initial: run.state.start, ...(agent.state ? { schema: agent.state.schema } : {}), emit });
  // The current step's surface attempts, and record facts waiting for the run's next write to the store.
  const attempts: RecordSurfaceAttempt[] = [];
  const unstoredFacts: RunFact[] = [];
  const note = (fact: RunFact) => {
    if (services.records) unstoredFacts.push(fact);
    services.observer?.fact(fact);
  };
  const surfaces = agent.generatedUi
    ? createSurfaceLifecycle({
        emit,
        catalogs: run.surfaceCatalogs,
        maxAttempts: agent.generatedUi.maxAttempts,
        onAttempt: (attempt) => attempts.push(attempt),
      })
    : undefined;
  // The model's events as they go out, watched for surfaces being built.
  const stepEmit: typeof emit = surfaces
    ? (event) => {
        emit(event);
        surfaces.observe(event);
      }
    : emit;
  const summedUsage = () => (usage.length > 0 ? { usage: aggregateTokenUsage(usage) } : {});
  // Every write takes the record facts waiting for one, and the state when it changed: they cost no write of their own.
  const takeUnstored = () => {
    // A step's predictions end with it: what no change confirmed is taken back before the step is stored.
    state.settle();
    const changed = state.take();
    return { ...(unstoredFacts.length > 0 ? { facts: unstoredFacts.splice(0) } : {}), ...(changed ? { state: changed } : {}) };
  };
  const commit = (stepMessages: Message[], pending: ToolCall[], interrupts: StoredInterrupt[] = []) =>
    store.commitStep({
      threadId: run.threadId,
      runId: run.runId,
      messages: stepMessages,
      pending: agent.history === "server" ? pending.map((call) => toPending(call, run.runId)) : [],
      interrupts,
      ...takeUnstored(),
    });
  // A surface the run leaves unfinished ends `failed`; the thread keeps it as the client last saw it.
  // Rare (the model stopped short of a retry), so its own small commit rather than a place in every step's.
  const endSurfaces = async () => {
    const ended = surfaces?.finish() ?? [];
    if (ended.length === 0) return;
    messages.push(...ended);
    await commit(ended, []);
  };
  // The store records the end with the run's last events before any client hears of it.
  const finish = async (outcome: RunFinishedOutcome) => {
    await endSurfaces();
    return channel.end(
      { type: EventType.RUN_FINISHED, threadId: run.threadId, runId: run.runId, outcome, ...summedUsage() },
      { status: outcome.type === "cancelled" ? "cancelled" : "finished", outcome, ...summedUsage(), ...takeUnstored() },
    );
  };
  // An aborted run was cancelled, unless its abort says why it was stopped instead: then it ends with that error.
  const cancelled = async () => {
    const stopped = stopReason(services.signal);
    if (stopped) throw stopped;
    return finish({ type: "cancelled" });
  };

  // What follows a step, whichever kind: its calls settled, its messages committed, and whether the run ends here.
  const settleStep = async (result: StepResult, request: ModelCallRequest): Promise<boolean> => {
    if (result.usage) usage.push(result.usage);
    if (result.error || result.aborted || produced(result).length === 0) {
      note(modelCallFact(request, result, { surfaces: attempts.splice(0), tools: run.toolSet.tools, stopped: stopReason(services.signal) }));
    }
    if (result.error || result.aborted) {
      await keepPartialStep(result, run, services, commit);
      if (result.aborted) {
        await cancelled();
        return true;
      }
      services.onModelError?.(result.error!, run.runId);
      throw result.error;
    }
    if (produced(result).length === 0) {
      await finish({ type: "success" });
      return true;
    }

    const settled = await settleToolCalls({
      ...contextFor(run, services, state),
      calls: result.calls,
      decide,
      tools: run.toolSet.tools,
      emit,
      ...(surfaces ? { surfaces } : {}),
      approvals: {
        mode: agent.history,
        expiresInMs: agent.approvalTimeoutMs,
        secret: services.approvals.secret,
        newId: services.ids.interrupt,
        now: services.approvals.now,
      },
    });
    if (services.signal.aborted) {
      // Cancelled before the questions went out: nobody will answer them, so they are answered now.
      settled.results.push(...settled.interrupts.map((stored) => cancelledAnswer(stored.toolCallId, services)));
      settled.interrupts = [];
    }
    note(modelCallFact(request, result, { toolCalls: settled.facts, surfaces: attempts.splice(0), tools: run.toolSet.tools }));
    // Surfaces come after the results, where the client holds them (a result goes right after its call).
    const stepMessages = [...placeResults(produced(result), settled.results), ...(surfaces?.takeFinished() ?? [])];
    messages.push(...stepMessages);
    await commit(stepMessages, settled.pending, settled.interrupts);
    if (services.signal.aborted) {
      await cancelled();
      return true;
    }
    if (settled.interrupts.length > 0) {
      // The snapshot then holds every surface with its final content.
      await endSurfaces();
      // What the client needs to show the question and come back to it later, before the run ends.
      emit({ type: EventType.STATE_SNAPSHOT, snapshot: state.get() });
      emit({ type: EventType.MESSAGES_SNAPSHOT, messages: snapshotMessages(messages, agent.history) });
      await finish({ type: "interrupt", interrupts: settled.interrupts.map((stored) => stored.interrupt) });
      return true;
    }
    if (settled.pending.length > 0) {
      await finish({ type: "success", pendingToolCallIds: settled.pending.map((call) => call.toolCallId) });
      return true;
    }
    if (result.calls.length === 0) {
      await finish({ type: "success" });
      return true;
    }
    return false;
  };

  // Answers to the engine's own held calls go to its first step: it carries the calls out itself.
  let confirmations: EngineConfirmation[] = [];
  try {
    if (run.answers.length > 0) {
      const applied = await applyAnswers({
        ...contextFor(run, services, state),
        answers: run.answers,
        tools: run.toolSet.tools,
        emit,
        engineConfirms: agent.stepEngine !== undefined,
      });
      confirmations = applied.forEngine;
      const answered = [...applied.results, ...run.deferred];
      messages.push(...answered);
      await commit(answered, applied.pending);
      // An approved browser call goes to the browser first; the model speaks once it reports back.
      if (applied.pending.length > 0) return await finish({ type: "success", pendingToolCallIds: applied.pending.map((call) => call.toolCallId) });
    }
    for (let step = 0; ; step++) {
      if (step === agent.maxSteps) {
        throw new TetherError("step_limit_exceeded", `The agent used all ${agent.maxSteps} model steps without finishing, so the run was stopped.`);
      }
      const { result, request } = await takeAgentStep({
        run,
        services,
        state,
        messages,
        step: step + 1,
        emit: stepEmit,
        usedToolCallIds,
        tools,
        decide,
        endMetadata: (call) => callEndMetadata(call, run, decide),
        confirmations: step === 0 ? confirmations : [],
        facts: unstoredFacts,
      });
      if (await settleStep(result, request)) return;
    }
  } catch (thrown) {
    // A stopped run ends with why it was stopped, not with what the stop made fail after it
    // (its step refused as ended elsewhere, or the store away). A refused step ends the run here too:
    // someone else ended it, so nothing more of it executes.
    const error = stopReason(services.signal) ?? toTetherError(thrown);
    // A surface the run was building is over too: it says so rather than spin for ever.
    // Kept in the thread if the store can take it; when the store is what failed, the run's end comes first.
    await endSurfaces().catch(() => {});
    await channel.end(
      {
        type: EventType.RUN_ERROR,
        code: error.code,
        message: error.message,
        // RUN_ERROR has no runId field; the SSE frame id carries it too, but a stored event should say it itself.
        metadata: { tether: { runId: run.runId, threadId: run.threadId } },
        ...summedUsage(),
      },
      { status: "error", error: { code: error.code, message: error.message }, ...summedUsage(), ...takeUnstored() },
    );
  }
}

/** Who and where, for tools that act in this run, and the state they change. */
function contextFor(run: NewRun, services: RunServices, state: RunState) {
  return {
    state,
    user: run.user,
    threadId: run.threadId,
    runId: run.runId,
    signal: services.signal,
    newMessageId: services.ids.message,
    checker: run.toolSet.checker,
  };
}

function toPending(call: ToolCall, runId: string): PendingToolCall {
  return { toolCallId: call.toolCallId, toolName: call.toolName, runId, arguments: call.argumentsText };
}
