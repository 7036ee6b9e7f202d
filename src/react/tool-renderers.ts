import { createContext, type ReactNode } from "react";
import type { ToolActivity } from "../client/index.ts";

/** One call of a browser tool, as its `render` sees it: the arguments the model sent, and how far the call got. */
export interface ToolCallView<Args = unknown> {
  toolCallId: string;
  /** The call's arguments; undefined while they stream, or when they are not valid JSON. */
  args: Args | undefined;
  /** `calling`, `awaiting` (an approval), `running`, then the outcome's status. */
  status: ToolActivity["status"];
  stage?: string;
  reason?: string;
  message?: string;
}

export type ToolCallRenderer<Args = any> = (call: ToolCallView<Args>) => ReactNode;

/** A call's timeline line in the tool's own words ("Opened Work request list"); undefined leaves the library's. */
export type ToolCallDescriber<Args = any> = (call: ToolCallView<Args>) => string | undefined;

/** How one browser tool shows its calls: its own view beside the line, its own words on the line. */
export interface ToolView {
  render?: ToolCallRenderer;
  describe?: ToolCallDescriber;
}

/** The views of one provider's browser tools, by tool name. */
export interface ToolRenderers {
  register(toolName: string, view: ToolView): () => void;
  get(toolName: string): ToolView | undefined;
  subscribe(listener: () => void): () => void;
  /** Changes with every registration, for `useSyncExternalStore`. */
  version(): number;
}

/** A registry per `TetherProvider`: views live as long as the components that registered them. */
export function createToolRenderers(): ToolRenderers {
  const renderers = new Map<string, ToolView>();
  const listeners = new Set<() => void>();
  let version = 0;
  const changed = () => {
    version++;
    for (const listener of listeners) listener();
  };
  return {
    register(toolName, view) {
      renderers.set(toolName, view);
      changed();
      return () => {
        if (renderers.get(toolName) !== view) return;
        renderers.delete(toolName);
        changed();
      };
    },
    get: (toolName) => renderers.get(toolName),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
  };
}

/** The nearest `TetherProvider`'s renderers; `undefined` outside one. */
export const ToolRenderersContext = createContext<ToolRenderers | undefined>(undefined);
