import { useSyncExternalStore } from "react";
import type { AgentSession, SessionState } from "../client/index.ts";

/** The session's state, re-rendering on every change. */
export function useAgentSession(session: AgentSession): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState, session.getState);
}
