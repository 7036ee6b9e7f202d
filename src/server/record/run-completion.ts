import type { RunRecordDocument } from "../../protocol/index.ts";
import type { LostRunEnding, StoredRun } from "../store/index.ts";
import { redactString } from "./redact/index.ts";

/** The codes a run is ended with when its process is gone (see `RunStore.endLostRun`). */
const LOST_RUN_CODES: ReadonlySet<string> = new Set<LostRunEnding["code"]>(["instance_lost", "run_cancelled"]);

/**
 * Whether a run's record is whole. A running run's is not, yet; one marked
 * running that no process here runs, or one ended as lost, never will be: its
 * record stops where the store does, and `incomplete` says why.
 */
export function runCompletion(run: StoredRun, live: boolean): Pick<RunRecordDocument, "complete" | "incomplete"> {
  if (run.status === "running") {
    return live
      ? { complete: false }
      : {
          complete: false,
          incomplete: { code: "instance_lost", message: "The run is marked running, but no process is running it: its record stops where the store does." },
        };
  }
  // A lost run is ended with an error and no outcome (a cancelled one with status `cancelled`, which a loop's own end never pairs with an error).
  const lost = run.error && !run.outcome && LOST_RUN_CODES.has(run.error.code) && (run.error.code === "instance_lost" || run.status === "cancelled");
  return lost ? { complete: false, incomplete: { code: run.error!.code, message: redactString(run.error!.message) } } : { complete: true };
}
