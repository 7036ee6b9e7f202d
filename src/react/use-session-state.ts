import { useSyncExternalStore } from "react";
import type { AgentSession, SessionState } from "../client/index.ts";

/**
 * The state of the session given (`useTetherSession()` gives the provider's session), re-rendering on every change;
 * with `select`, only when what it picks changes (by `Object.is`): `select` must return a part of the state, not a
 * new object each time.
 *
 * @example
 * const running = useSessionState(session, (state) => state.running); // not re-rendered per streamed token
 */
export function useSessionState(session: AgentSession): SessionState;
export function useSessionState<T>(session: AgentSession, select: (state: SessionState) => T): T;
export function useSessionState<T>(session: AgentSession, select?: (state: SessionState) => T): SessionState | T {
  const read: () => SessionState | T = select ? () => select(session.getState()) : session.getState;
  return useSyncExternalStore<SessionState | T>(session.subscribe, read, read);
}
