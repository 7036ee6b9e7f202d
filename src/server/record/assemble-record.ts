import { EventType, type Message, type TokenUsage } from "@ag-ui/core";
import { cutPointers, type RunRecordDocument } from "../../protocol/index.ts";
import type { StoredRun } from "../store/index.ts";
import type { RunFact } from "./run-facts.ts";
import { indexMessages } from "./message-index.ts";
import { recordInput, recordedTools } from "./record-input.ts";
import { callsFact, keptParts, requestFact, type KeptParts, type RequestPart } from "./record-kept-parts.ts";
import { summarizeRunRequest } from "../store/shared/index.ts";
import { recordModelCalls } from "./record-model-calls.ts";
import { recordOutcome } from "./record-outcome.ts";
import { recordOutput, type EventPageRequest } from "./record-output.ts";
import { recordReports } from "./record-reports.ts";
import { keep } from "./keep.ts";
import { RECORD_LIMITS } from "./record-limits.ts";
import type { RecordSources } from "./record-sources.ts";
import { runCompletion } from "./run-completion.ts";
import { redactString } from "./redact/index.ts";
import { readRunRequest } from "./run-request.ts";
import { runTrigger } from "./run-trigger.ts";

/**
 * A run's record, assembled from what the store kept of it: its row, the
 * thread's messages, its events, its record facts and its reports. `page`
 * picks which of its events come in this document (the rest by `output.next`).
 */
export async function assembleRecord(sources: RecordSources, run: StoredRun, page: EventPageRequest): Promise<RunRecordDocument> {
  const { store } = sources;
  const cached = sources.recordInputs?.get(run.runId);
  const [runs, events, facts, reports] = await Promise.all([
    // Only the links: the other runs' requests (a stateless thread's whole history each) are not this record's.
    store.listRunLinks(run.threadId),
    store.readEvents(run.runId),
    // The store keeps facts as the run wrote them (RunFact), knowing only their kind.
    store.listFacts(run.runId) as Promise<RunFact[]>,
    store.listReports(run.runId),
  ]);
  // What an earlier read kept, here or as the run's facts (from another instance, or before a restart).
  const kept: KeptParts = cached
    ? { request: { input: cached.input, trigger: cached.trigger }, ...(cached.modelCalls ? { modelCalls: cached.modelCalls } : {}) }
    : keptParts(facts);
  // The thread's messages (the whole conversation) only for what is not kept yet, and for reports, whose outcomes come later.
  // Every message of a request is in the thread (a stateless run stores those it had not seen), and the thread's word wins.
  const messages =
    !kept.request || !kept.modelCalls || reports.length > 0 ? indexMessages(await store.getMessages(run.threadId, { withSetAside: true })) : undefined;
  const requestPart = kept.request ?? (await readRequestPart(sources, run, messages!.byId, events[0]?.event, facts));
  const { surfaceCatalogs, ...keptInput } = requestPart.input;
  // The run's final state is its row's: what its last committed step left.
  const output = { ...recordOutput(events, page), ...(run.state ? { state: keep<unknown>(run.state, RECORD_LIMITS.value) } : {}) };
  const modelCalls = kept.modelCalls ?? recordModelCalls(facts, messages!.byId, messages!.results);
  // An ended run's calls are settled: its facts are all written, and the messages they name are its own.
  const ended = run.status !== "running";
  if (ended && !kept.modelCalls) await keepFacts(sources, run.runId, [callsFact(modelCalls)]);
  if (!cached || (ended && !cached.modelCalls)) sources.recordInputs?.set(run.runId, { ...requestPart, ...(ended ? { modelCalls } : {}) });
  nameSurfaces(output, modelCalls);

  const record: Omit<RunRecordDocument, "cuts"> = {
    format: 2,
    runId: run.runId,
    threadId: run.threadId,
    agentId: run.agentId,
    userId: run.userId,
    status: run.status,
    ...runCompletion(run, run.status === "running" && (await sources.isLive(run.runId))),
    createdAt: run.createdAt,
    ...(run.finishedAt ? { finishedAt: run.finishedAt } : {}),
    ...traceOf(facts),
    start: {
      trigger: requestPart.trigger,
      ...(run.parentRunId ? { previousRunId: run.parentRunId } : {}),
      nextRunIds: runs.filter((later) => later.parentRunId === run.runId).map((later) => later.runId),
    },
    input: { ...keptInput, tools: recordedTools(facts), surfaceCatalogs },
    modelCalls,
    output,
    reports: await recordReports({
      run,
      reports,
      runs,
      results: messages?.results ?? new Map(),
      runOfMessage: (messageId) => store.getMessageRun(run.threadId, messageId),
    }),
    ...(run.outcome ? { outcome: recordOutcome(run.outcome) } : {}),
    // An error's words may quote what failed (a header, a URL with its key): redacted like any other value.
    ...(run.error ? { error: { code: run.error.code, message: redactString(run.error.message) } } : {}),
    ...(run.usage && run.usage.length > 0 ? { usage: sumUsage(run.usage) } : {}),
  };
  // Where the cuts are, apart from the values: input shaped like a cut is then never read as one.
  return { ...record, cuts: cutPointers(record) };
}

/**
 * What the record says of the run's request, redacted and capped once per run:
 * kept as its fact, so no later read computes it again.
 */
async function readRequestPart(
  sources: RecordSources,
  run: StoredRun,
  byId: Map<string, Message>,
  first: { type: string } | undefined,
  facts: RunFact[],
): Promise<RequestPart> {
  const [stored, before] = await Promise.all([sources.store.readRunInput(run.runId), sources.store.getMessages(run.threadId, { beforeRunId: run.runId })]);
  const request = readRunRequest(stored, byId);
  const { tools: _tools, ...input } = recordInput({ request, before, added: addedMessages(first), facts, generatedUi: sources.generatedUi(run.agentId) });
  const part = { input, trigger: runTrigger(run, run.requestSummary ?? summarizeRunRequest(request.messages, request.resume)) };
  await keepFacts(sources, run.runId, [requestFact(part)]);
  return part;
}

/**
 * Writes parts of the record as the run's facts. Two first readers may both
 * write: the next read takes the newest. A failed write costs only the next
 * read computing them again, so the record is served anyway.
 */
async function keepFacts(sources: RecordSources, runId: string, facts: RunFact[]): Promise<void> {
  await sources.store.appendFacts(runId, facts).catch(() => undefined);
}

/** The run's new messages, as its RUN_STARTED replays them. */
function addedMessages(first: { type: string } | undefined): Message[] {
  if (first?.type !== EventType.RUN_STARTED) return [];
  return (first as { input?: { messages?: Message[] } }).input?.messages ?? [];
}

function sumUsage(usage: TokenUsage[]): NonNullable<RunRecordDocument["usage"]> {
  const total: NonNullable<RunRecordDocument["usage"]> = {};
  for (const entry of usage) {
    for (const key of ["inputTokens", "outputTokens", "totalTokens"] as const) {
      if (typeof entry[key] === "number") total[key] = (total[key] ?? 0) + entry[key];
    }
  }
  return total;
}

/** A surface that ended without operations names no surface id; its attempts do (its position is named after its first call). */
function nameSurfaces(output: RunRecordDocument["output"], modelCalls: RunRecordDocument["modelCalls"]) {
  const byPosition = new Map<string, string>();
  for (const call of modelCalls) for (const attempt of call.surfaces) byPosition.set(`a2ui-surface-${attempt.toolCallId}`, attempt.surfaceId);
  for (const surface of output.surfaces) {
    const surfaceId = surface.surfaceId ?? byPosition.get(surface.messageId);
    if (surfaceId) surface.surfaceId = surfaceId;
  }
}

/** The run's trace, when telemetry was on: the join key to its spans. */
function traceOf(facts: RunFact[]): { traceId?: string } {
  const trace = facts.find((fact) => fact.kind === "trace");
  return trace?.kind === "trace" ? { traceId: trace.traceId } : {};
}
