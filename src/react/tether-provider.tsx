import type { ReactNode } from "react";
import type { AgentSession } from "../client/index.ts";
import { TetherContext } from "./tether-context.ts";

export interface TetherProviderProps {
  session: AgentSession;
  children?: ReactNode;
}

/**
 * Hands a session to the panel parts (`Conversation`, `Composer`,
 * `ToolTimeline` …) and to `useTetherSession()` below it.
 *
 * @example
 * <TetherProvider session={session}>
 *   <Conversation />
 *   <Composer />
 * </TetherProvider>
 */
export function TetherProvider({ session, children }: TetherProviderProps) {
  return <TetherContext.Provider value={session}>{children}</TetherContext.Provider>;
}
