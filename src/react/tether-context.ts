import { createContext } from "react";
import type { AgentSession } from "../client/index.ts";

/** The session a `TetherProvider` hands down; `undefined` outside one. */
export const TetherContext = createContext<AgentSession | undefined>(undefined);
