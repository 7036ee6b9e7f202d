import type { RecordTriggerKind } from "../../protocol/index.ts";
import type { NewRun } from "../run/index.ts";

/**
 * What started a run, for its span: the trigger the client stated, else what
 * the request shows (answers to approvals, a browser's tool results, a user's
 * message), as the run record says it.
 */
export function runTriggerKind(run: NewRun): RecordTriggerKind {
  const stated = run.begin.run.trigger?.kind;
  if (stated) return stated;
  if (run.answers.length > 0) return "resume";
  return run.added.at(-1)?.role === "tool" ? "tool-result" : "user-message";
}
