import { useContext } from "react";
import type { AgentSession } from "../client/index.ts";
import { TetherContext } from "./tether-context.ts";

/** The session of the nearest `TetherProvider`; throws outside one. */
export function useTetherSession(): AgentSession {
  const session = useContext(TetherContext);
  if (!session) throw new Error("useTetherSession() found no session: render this component inside <TetherProvider session={…}>.");
  return session;
}
