import type { Message } from "@ag-ui/core";
import type { ThreadRunChain } from "../../protocol/index.ts";
import type { StoredRun, StoredThread } from "../store/index.ts";
import { summarizeRunRequest, type RunRequestSummary } from "../store/shared/index.ts";
import { indexMessages } from "./message-index.ts";
import type { RecordSources } from "./record-sources.ts";
import { recordOutcome } from "./record-outcome.ts";
import { runCompletion } from "./run-completion.ts";
import { readRunRequest } from "./run-request.ts";
import { runTrigger, summarizeTrigger } from "./run-trigger.ts";

/**
 * A thread's runs, oldest first, each with what started it in a few words and its links to the runs around it.
 * Reads no run's request (in client mode the whole history each): what started a run is in its summary.
 */
export async function threadRunChain(sources: Omit<RecordSources, "generatedUi">, thread: StoredThread): Promise<ThreadRunChain> {
  const [runs, messages] = await Promise.all([sources.store.listRuns(thread.threadId), sources.store.getMessages(thread.threadId, { withSetAside: true })]);
  const index = indexMessages(messages);
  // Asked once per running run: with several instances the answer may come from the shared bus.
  const running = runs.filter((run) => run.status === "running");
  const live = new Set((await Promise.all(running.map(async (run) => ((await sources.isLive(run.runId)) ? [run.runId] : [])))).flat());
  // One after another: a run stored before summaries has its request read, and only one is held at a time.
  const summaries: RunRequestSummary[] = [];
  for (const run of runs) summaries.push(await requestSummaryOf(sources, run, index.byId));
  return {
    threadId: thread.threadId,
    agentId: thread.agentId,
    runs: runs.map((run, position) => {
      const trigger = runTrigger(run, summaries[position]!);
      const { complete } = runCompletion(run, live.has(run.runId));
      return {
        runId: run.runId,
        status: run.status,
        complete,
        createdAt: run.createdAt,
        ...(run.finishedAt ? { finishedAt: run.finishedAt } : {}),
        trigger: { kind: trigger.kind, summary: summarizeTrigger(trigger, index.byId, index.toolNames) },
        ...(run.parentRunId ? { previousRunId: run.parentRunId } : {}),
        nextRunIds: runs.filter((later) => later.parentRunId === run.runId).map((later) => later.runId),
        ...(run.outcome ? { outcome: recordOutcome(run.outcome) } : {}),
        ...(run.error ? { error: { code: run.error.code } } : {}),
      };
    }),
  };
}

/** The run's summary; a run stored before summaries were kept has its request read instead (once, for that run). */
export async function requestSummaryOf(sources: Pick<RecordSources, "store">, run: StoredRun, byId: Map<string, Message>): Promise<RunRequestSummary> {
  if (run.requestSummary) return run.requestSummary;
  const request = readRunRequest(await sources.store.readRunInput(run.runId), byId);
  return summarizeRunRequest(request.messages, request.resume);
}
