import { beginRunRefusals, summarizeRunRequest } from "../store/shared/index.ts";
import type { Context, Message, RunAgentInput } from "@ag-ui/core";
import { TetherError } from "../../protocol/index.ts";
import type { Agent } from "../agent/index.ts";
import type { TetherUser } from "../auth/index.ts";
import { prepareClientHistory, reconcileServerHistory, type ReconciledHistory, prepareRegeneration, storedWordsToSetAside } from "../history/index.ts";
import { checkResume, type ResumeCheck } from "../approvals/index.ts";
import type { BeginRun, RunStore } from "../store/index.ts";
import { buildToolSet, type ToolSet } from "../tools/index.ts";
import { clientCatalogs, describeCatalogIds, type ClientCatalog, RENDER_A2UI, prepareUiAction } from "../genui/surfaces/index.ts";
import type { IdSource } from "./ids.ts";
import { offeredTools, type StateEditFact } from "../record/index.ts";
import { answeredRunId } from "./answered-run.ts";
import { repeatsActiveRun } from "./active-run-repeat.ts";
import { checkIds, parseTrigger } from "./request-checks.ts";
import { ANY_OBJECT_STATE, startingState, type StartingState } from "../state/index.ts";

/**
 * A run request that passed every check: a new run, ready to be stored and
 * run; or a repeat of what a run already acted on (a double click, a retry,
 * the same outcome from two tabs at once), whose events, live or stored, are
 * the answer.
 */
export type PreparedRun = ({ kind: "new" } & NewRun) | { kind: "repeat"; runId: string };

/** A run that passed every check, as the loop takes it. */
export interface NewRun {
  agent: Agent;
  user: TetherUser;
  threadId: string;
  runId: string;
  context: Context[];
  /** The shared state the run starts from (the thread's, the person's edit, the client's), as starting-state.ts decided. */
  state: StartingState;
  /** What the store records as the run begins, but for its first events, which the runner makes. */
  begin: Omit<BeginRun, "events">;
  parentRunId?: string;
  toolSet: ToolSet;
  /** The history the model starts from (without `deferred`). */
  history: Message[];
  /** What this run adds, replayed in its RUN_STARTED. */
  added: Message[];
  /** Added messages that wait until the answered calls have their results. */
  deferred: Message[];
  synthesized: boolean;
  /** Answers to interrupts this run carries, acted on before the model speaks. */
  answers: ResumeCheck["answers"];
  /** What the client can render, bounding generated surfaces (agents with generated UI). */
  surfaceCatalogs: ClientCatalog[];
}

/**
 * Everything that can be refused about a run request, refused here: before
 * anything is stored, before the stream opens.
 */
export async function prepareRun(options: {
  agent: Agent;
  user: TetherUser;
  input: RunAgentInput;
  store: RunStore;
  ids: IdSource;
  secret: string;
  /** The clock approvals are judged by (see RunStore.now). */
  now(): Promise<Date>;
}): Promise<PreparedRun> {
  const { agent, user, input, store, ids } = options;
  checkIds(input);
  let trigger = parseTrigger(input);
  let parentRunId = trigger?.parentRunId ?? input.parentRunId;

  const thread = await store.getThread(input.threadId);
  if (thread && thread.ownerId !== user.id) throw beginRunRefusals.threadOfAnotherUser();
  if (thread && thread.agentId !== agent.id) {
    throw new TetherError("history_conflict", `Thread ${input.threadId} belongs to agent "${thread.agentId}", not "${agent.id}".`);
  }
  if (await store.getRun(input.runId)) throw beginRunRefusals.runExists(input.runId);
  const active = thread && (await store.getActiveRun(thread.threadId));
  if (active) {
    // The same request twice at once (two tabs, a retry racing the first) is one request: the second follows the run.
    if (await repeatsActiveRun({ active, agent, user, input, trigger, store })) return { kind: "repeat", runId: active.runId };
    throw beginRunRefusals.runInProgress();
  }
  if (parentRunId) {
    const parent = await store.getRun(parentRunId);
    // A stateless agent's earlier run may have run on another instance, or before a restart: unknown here is fine, another thread's is not.
    const unknownIsFine = agent.history === "client" && !parent;
    if (!unknownIsFine && (!parent || parent.threadId !== input.threadId)) {
      throw new TetherError("invalid_trigger", `The parent run ${parentRunId} is not a run of thread ${input.threadId}.`);
    }
  }

  const state = startingState({
    agentId: agent.id,
    mode: agent.history,
    requested: input.state,
    stored: thread?.state,
    schema: agent.state?.schema ?? ANY_OBJECT_STATE,
    ...(agent.state ? { declared: agent.state } : {}),
  });

  const toolSet = buildToolSet(agent, user, input.tools);
  const surfaceCatalogs = agent.generatedUi ? clientCatalogs(input) : [];
  if (agent.generatedUi && surfaceCatalogs.length === 0) {
    // Every surface for this client would fail validation three times over: the model answers in words instead.
    toolSet.tools.delete(RENDER_A2UI);
    toolSet.log.push({
      level: "info",
      code: "surface_catalog_unknown",
      message: `The client declared no A2UI catalog Tether can check (only ${describeCatalogIds(input)}), so ${RENDER_A2UI} was not offered.`,
    });
  }
  const stored = thread ? await store.getMessages(thread.threadId) : [];
  const storedIds = new Set(stored.map((message) => message.id));
  if (trigger?.kind === "regenerate" && (input.resume?.length ?? 0) > 0) {
    throw new TetherError("invalid_trigger", "A regenerate run carries no answers to approvals; answer them in a resume run first.");
  }
  const pending = thread && agent.history === "server" ? await store.getPendingToolCalls(thread.threadId) : [];
  // With the thread on the server, the server cuts the answer; a stateless client cuts it from the history it sends.
  const regeneration =
    trigger?.kind === "regenerate" && agent.history === "server"
      ? prepareRegeneration({
          stored,
          trigger,
          incoming: input.messages,
          pendingInterrupts: (await store.getPendingInterrupts(input.threadId)).length,
          awaitedCalls: [...new Set(pending.filter((call) => isFollowUp(agent, call.toolName)).map((call) => call.toolName))],
        })
      : undefined;
  const supersede = trigger?.kind === "regenerate" ? (regeneration?.supersede ?? storedWordsToSetAside(stored, trigger)) : undefined;
  // The answer replaced is the thread's latest run's, whichever tab asks.
  if (trigger?.kind === "regenerate" && thread) parentRunId ??= (await store.listRunLinks(thread.threadId)).at(-1)?.runId;
  const resume = await checkResume({
    resume: input.resume ?? [],
    threadId: input.threadId,
    user,
    mode: agent.history,
    messages: input.messages,
    toolSet,
    store,
    secret: options.secret,
    now: options.now,
  });
  const carriesNewUserMessage = input.messages.some((message) => message.role === "user" && !storedIds.has(message.id));
  // Only answers already acted on, and nothing new from the user: the same result again, not a new run.
  if (resume.answers.length === 0 && resume.repeated.length > 0 && !carriesNewUserMessage) {
    return { kind: "repeat", runId: resume.repeated[0]!.resolvedByRunId! };
  }
  const reconciled: ReconciledHistory = regeneration
    ? // The answer's browser calls are set aside with it; the snapshot tells every client the answer is gone.
      { added: [], resolvedToolCallIds: pending.map((call) => call.toolCallId), history: regeneration.history, synthesized: true, repeatedResults: [] }
    : agent.history === "server"
      ? reconcileServerHistory({
          stored,
          pending,
          incoming: input.messages,
          newMessageId: ids.message,
        })
      : prepareClientHistory(input.messages);
  const uiAction = await prepareUiAction({
    agent,
    threadId: input.threadId,
    forwardedProps: input.forwardedProps,
    trigger,
    parentRunId,
    history: reconciled.history,
    store,
  });
  if (uiAction?.kind === "repeat") return uiAction;
  const actionMessages = uiAction?.messages ?? [];
  if (uiAction) ({ trigger, parentRunId } = uiAction);
  // A retried browser outcome and nothing else (the same message again, or the same content under a
  // new id): the run that took it in is its result, not a new turn of the model.
  if (agent.history === "server" && reconciled.added.length === 0 && resume.answers.length === 0 && !uiAction && !regeneration) {
    const last = input.messages.filter((message) => message.role !== "activity" && message.role !== "reasoning").at(-1);
    const retried = reconciled.repeatedResults.at(-1) ?? (last?.role === "tool" && storedIds.has(last.id) ? last.id : undefined);
    const runId = retried && (await store.getMessageRun(input.threadId, retried));
    if (runId) return { kind: "repeat", runId };
  }
  if (reconciled.waiting) throw reconciled.waiting;
  // In client mode the request is the reference; the store keeps what it has not seen, for the record.
  // A click on a surface comes last: the model reads what was clicked as the newest turn.
  const added = [...(agent.history === "server" ? reconciled.added : reconciled.added.filter((message) => !storedIds.has(message.id))), ...actionMessages];
  const history = [...reconciled.history, ...actionMessages];
  parentRunId ??= await answeredRunId({ store, threadId: input.threadId, answers: resume.answers, added, history });
  // A call's result must come right after it in the stored thread: new messages wait for the answered calls' results.
  const defer = resume.answers.length > 0 && agent.history === "server";
  const deferred = defer ? added : [];
  return {
    kind: "new",
    agent,
    user,
    threadId: input.threadId,
    runId: input.runId,
    context: input.context,
    state,
    begin: {
      thread: { threadId: input.threadId, agentId: agent.id, ownerId: user.id },
      run: {
        runId: input.runId,
        userId: user.id,
        ...(parentRunId ? { parentRunId } : {}),
        ...(trigger ? { trigger } : {}),
        input: recordableInput(input, agent.history),
        requestSummary: summarizeRunRequest(input.messages, input.resume),
        log: toolSet.log,
      },
      facts: [offeredTools(toolSet), ...stateEdited(state)],
      messages: defer ? [] : added,
      resolvedToolCallIds: reconciled.resolvedToolCallIds,
      ...(supersede ? { supersede } : {}),
      ...(state.store ? { state: state.store } : {}),
      resolvedInterrupts: resume.answers.map(({ stored: interrupt, answer }) => ({ interruptId: interrupt.interrupt.id, answer, interrupt })),
    },
    ...(parentRunId ? { parentRunId } : {}),
    toolSet,
    history: defer ? history.slice(0, history.length - added.length) : history,
    // Replayed in RUN_STARTED, so a reloaded page following the run sees the question that started it (in client mode: what this store had not seen).
    added,
    deferred,
    synthesized: reconciled.synthesized,
    answers: resume.answers,
    surfaceCatalogs,
  };
}

/** What the run record keeps of the request; in server mode the thread already holds the history. */
function recordableInput(input: RunAgentInput, mode: Agent["history"]): unknown {
  if (mode === "client") return input;
  const { messages, ...rest } = input;
  return { ...rest, messageIds: messages.map((message) => message.id) };
}

/** Whether the agent needs a browser tool's outcome to go on (`follow-up`, the default), as its allow-list declares it. */
function isFollowUp(agent: Agent, toolName: string): boolean {
  return agent.browserTools.find((tool) => tool.name === toolName)?.kind !== "render-only";
}

/** The person's edit of the state, for the run's record. */
function stateEdited(state: StartingState): StateEditFact[] {
  return state.edit ? [{ kind: "state-edit", operations: state.edit }] : [];
}
