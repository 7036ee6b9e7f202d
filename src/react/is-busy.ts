import type { SessionStatus } from "../client/index.ts";

/** A run is going, started here or followed: nothing new can be sent or answered. */
export function isBusy(status: SessionStatus): boolean {
  return status === "running" || status === "observing";
}
