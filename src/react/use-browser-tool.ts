import { useEffect, useRef } from "react";
import type { AgentSession, BrowserToolHandler } from "../client/index.ts";

/**
 * Registers a browser tool for as long as the component is mounted. The
 * executor may close over fresh props and state: the latest one always runs.
 */
export function useBrowserTool<Args>(session: AgentSession, handler: BrowserToolHandler<Args>): void {
  const latest = useRef(handler);
  latest.current = handler;
  const { spec, modes, onReload } = handler;
  useEffect(
    () =>
      session.registerTool({
        spec,
        ...(modes ? { modes } : {}),
        ...(onReload ? { onReload } : {}),
        execute: (args, execution) => latest.current.execute(args, execution),
      }),
    // The spec, not the executor, identifies the tool; a new executor needs no new registration.
    [session, spec, modes?.join(","), onReload],
  );
}
