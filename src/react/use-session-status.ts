import { sessionStatus, type SessionStatus } from "../client/index.ts";
import { useSessionState } from "./use-session-state.ts";
import { useTetherSession } from "./use-tether-session.ts";

/** The status of the nearest `TetherProvider`'s session, re-rendering when it changes. */
export function useSessionStatus(): SessionStatus {
  return sessionStatus(useSessionState(useTetherSession()));
}
