import { isTetherError, type TetherError } from "../../protocol/index.ts";

/**
 * The error a run ends with when it was stopped rather than cancelled: its
 * signal was aborted with a reason other than a cancel (this server lost its
 * hold on the store: `instance_lost`). Undefined while the run goes on, and
 * for a cancel, which ends with RUN_FINISHED `cancelled`.
 */
export function stopReason(signal: AbortSignal): TetherError | undefined {
  const reason: unknown = signal.reason;
  return signal.aborted && isTetherError(reason) && reason.code !== "run_cancelled" ? reason : undefined;
}
