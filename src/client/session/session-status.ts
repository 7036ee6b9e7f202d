import type { SessionState } from "./session-types.ts";

/**
 * What a session is doing, as one value: `running` (a run this page started
 * is streaming), `observing` (following a run it did not start; it never
 * acts), `awaiting-approval` (the agent waits on an answer), `error` (the last
 * run failed) or `idle`.
 */
export type SessionStatus = "idle" | "running" | "observing" | "awaiting-approval" | "error";

/**
 * The session's status, derived from its state. A run going wins over what
 * the last one left behind; an open approval wins over an error, because it
 * is what the person can act on.
 *
 * @example
 * const busy = ["running", "observing"].includes(sessionStatus(session.getState()));
 */
export function sessionStatus(state: Pick<SessionState, "running" | "observing" | "interrupts" | "error">): SessionStatus {
  if (state.running) return state.observing ? "observing" : "running";
  if (state.interrupts.length > 0) return "awaiting-approval";
  if (state.error) return "error";
  return "idle";
}
