import { useState, type ReactNode } from "react";
import type { AgentSession } from "../client/index.ts";
import { TetherContext } from "./tether-context.ts";
import { ToolRenderersContext, createToolRenderers } from "./tool-renderers.ts";

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
  // Browser tools below register how their calls look in the conversation here (useBrowserTool's `render`).
  const [renderers] = useState(createToolRenderers);
  return (
    <TetherContext.Provider value={session}>
      <ToolRenderersContext.Provider value={renderers}>{children}</ToolRenderersContext.Provider>
    </TetherContext.Provider>
  );
}
