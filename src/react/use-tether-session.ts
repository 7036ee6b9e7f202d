import { useContext } from "react";
import type { AgentSession } from "../client/index.ts";
import { TetherContext } from "./tether-context.ts";

/** The session of the nearest `TetherProvider`; throws outside one. */
export function useTetherSession(): AgentSession {
  const session = useContext(TetherContext);
  // A programmer error (the component is placed outside its provider), not a user's: a plain Error, thrown while rendering.
  if (!session) throw new Error("useTetherSession() found no session: render this component inside <TetherProvider session={…}>.");
  return session;
}
