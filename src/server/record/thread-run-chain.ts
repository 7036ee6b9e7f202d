import type { ThreadRunChain } from "../../protocol/index.ts";
import type { ThreadRecord } from "../store/port.ts";
import { indexMessages } from "./message-index.ts";
import type { RecordSources } from "./record-sources.ts";
import { recordOutcome } from "./record-outcome.ts";
import { runCompletion } from "./run-completion.ts";
import { readRunRequest } from "./run-request.ts";
import { runTrigger, summarizeTrigger } from "./run-trigger.ts";

/** A thread's runs, oldest first, each with what started it in a few words and its links to the runs around it. */
export async function threadRunChain(sources: Omit<RecordSources, "generatedUi">, thread: ThreadRecord): Promise<ThreadRunChain> {
  const [runs, messages] = await Promise.all([sources.store.listRuns(thread.threadId), sources.store.getMessages(thread.threadId, { withSetAside: true })]);
  const index = indexMessages(messages);
  // Asked once per running run: with several instances the answer may come from the shared bus.
  const running = runs.filter((run) => run.status === "running");
  const live = new Set((await Promise.all(running.map(async (run) => ((await sources.isLive(run.runId)) ? [run.runId] : [])))).flat());
  return {
    threadId: thread.threadId,
    agentId: thread.agentId,
    runs: runs.map((run) => {
      const request = readRunRequest(run, index.byId);
      // A stateless agent's request holds messages the thread may not: its own first.
      const known = request.mode === "client" ? indexMessages(messages, request.messages) : index;
      const trigger = runTrigger(run, request);
      const { complete } = runCompletion(run, live.has(run.runId));
      return {
        runId: run.runId,
        status: run.status,
        complete,
        createdAt: run.createdAt,
        ...(run.finishedAt ? { finishedAt: run.finishedAt } : {}),
        trigger: { kind: trigger.kind, summary: summarizeTrigger(trigger, known.byId, known.toolNames) },
        ...(run.parentRunId ? { previousRunId: run.parentRunId } : {}),
        nextRunIds: runs.filter((later) => later.parentRunId === run.runId).map((later) => later.runId),
        ...(run.outcome ? { outcome: recordOutcome(run.outcome) } : {}),
        ...(run.error ? { error: { code: run.error.code } } : {}),
      };
    }),
  };
}
