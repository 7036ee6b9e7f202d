import { useContext, useEffect, useRef } from "react";
import type { AgentSession, BrowserToolHandler } from "../client/index.ts";
import { ToolRenderersContext, type ToolCallDescriber, type ToolCallRenderer } from "./tool-renderers.ts";

/** A browser tool's handler, and optionally how its calls look in the conversation. */
export interface ReactBrowserToolHandler<Args = any> extends BrowserToolHandler<Args> {
  /**
   * Renders each call of this tool in the conversation, beside its line in
   * the timeline: while its arguments stream, while it runs, and with its
   * outcome. Needs a `TetherProvider` above the component.
   */
  render?: ToolCallRenderer<Args>;
  /**
   * The words of each call's line in the timeline ("Opened Work request
   * list", "Couldn't open User administration: you don't have access");
   * undefined for a status leaves the library's words. Needs a `TetherProvider`.
   */
  describe?: ToolCallDescriber<Args>;
}

/**
 * Registers a browser tool for as long as the component is mounted. The
 * executor and the renderer may close over fresh props and state: the latest
 * ones always run. The arguments are typed by the tool's schema.
 */
export function useBrowserTool<Args>(session: AgentSession, handler: ReactBrowserToolHandler<Args>): void {
  const latest = useRef(handler);
  latest.current = handler;
  const { spec, modes, onReload } = handler;
  const renderers = useContext(ToolRenderersContext);
  const renders = handler.render !== undefined;
  const describes = handler.describe !== undefined;
  // A programmer error (the component is placed outside its provider), not a user's: a plain Error, thrown while rendering.
  if ((renders || describes) && !renderers)
    throw new Error(`useBrowserTool("${spec.name}"): ${renders ? "render" : "describe"} needs a <TetherProvider session={…}> above this component.`);
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
  useEffect(() => {
    if (!(renders || describes) || !renderers) return;
    return renderers.register(spec.name, {
      ...(renders ? { render: (call) => latest.current.render?.(call) } : {}),
      ...(describes ? { describe: (call) => latest.current.describe?.(call) } : {}),
    });
  }, [renderers, spec.name, renders, describes]);
}
