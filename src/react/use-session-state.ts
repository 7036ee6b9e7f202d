import { useSyncExternalStore } from "react";
import type { AgentSession, SessionState } from "../client/index.ts";

/** The state of the session given (`useTetherSession()` gives the provider's session), re-rendering on every change. */
export function useSessionState(session: AgentSession): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState, session.getState);
}
