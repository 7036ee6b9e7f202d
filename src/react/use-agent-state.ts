import { useCallback } from "react";
import type { AgentSession, SessionState, SharedState } from "../client/index.ts";
import { useSessionState } from "./use-session-state.ts";
import { useTetherSession } from "./use-tether-session.ts";

/** How `useAgentState`'s setter is called: the next state, or a function of the one shown (handed a copy). */
export type AgentStateUpdate<T> = T | ((current: T) => T);

const selectState = (state: SessionState) => state.state;

/**
 * The agent's shared state of the nearest `TetherProvider`'s session, and a setter, like `useState`. The
 * component re-renders when the state changes, not as the answer streams. A change shows at once and
 * reaches the agent with the next run; made while a run streams, it wins on the paths it touched, and an
 * edit the agent's change made impossible is listed in `useSessionState(session).stateConflicts`.
 *
 * `T` is what the app knows the state to be (its agent's state schema); it is not checked here.
 *
 * @example
 * const [recipe, setRecipe] = useAgentState<{ title: string; servings: number }>();
 * <input value={recipe.title} onChange={(event) => setRecipe((current) => ({ ...current, title: event.target.value }))} />
 */
export function useAgentState<T extends object = SharedState>(): [T, (update: AgentStateUpdate<T>) => void] {
  const session = useTetherSession();
  const state = useSessionState(session, selectState) as T;
  const setState = useCallback((update: AgentStateUpdate<T>) => session.setState(update as Parameters<AgentSession["setState"]>[0]), [session]);
  return [state, setState];
}
