import type { ResumeEntry } from "@ag-ui/core";
import type { TetherUser } from "../auth/index.ts";
import type { RunStore } from "../store/index.ts";
import { sameAnswer } from "./same-answer.ts";

/**
 * The run that already acted on every answer of a `resume`, each the very
 * same way (the same answer posted twice: two tabs, a retry); undefined when
 * any answer is new, different, not this thread's and user's, or acted on by
 * another run. Reads the store only: an interrupt it does not hold (a
 * stateless agent's, rebuilt from its signed id) was acted on by no run here.
 */
export async function repeatedAnswersRun(options: { resume: ResumeEntry[]; threadId: string; user: TetherUser; store: RunStore }): Promise<string | undefined> {
  let runId: string | undefined;
  for (const answer of options.resume) {
    const stored = await options.store.getInterrupt(answer.interruptId);
    if (!stored || stored.threadId !== options.threadId || stored.userId !== options.user.id) return undefined;
    if (stored.status === "pending" || !stored.answer || !sameAnswer(stored.answer, answer) || !stored.resolvedByRunId) return undefined;
    if (runId !== undefined && stored.resolvedByRunId !== runId) return undefined;
    runId = stored.resolvedByRunId;
  }
  return runId;
}
