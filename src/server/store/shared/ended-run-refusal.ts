import { TetherError } from "../../../protocol/index.ts";

/**
 * Why a store refuses a step of a run that is no longer running: someone
 * else ended it (another instance that found its instance gone, a cancel
 * that could not reach it) and the thread may already have a new run, so a
 * late step must not land in it. Every store says it in the same words.
 */
export function endedRunRefusal(runId: string, status: string | undefined): TetherError {
  return new TetherError(
    "run_not_active",
    `Run ${runId} has already ended (${status ?? "no such run"}), so this step was not saved and the thread keeps what it had; start a new run to continue.`,
  );
}
