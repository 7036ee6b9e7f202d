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

/** The renderers of one provider's browser tools, by tool name. */
export interface ToolRenderers {
  register(toolName: string, render: ToolCallRenderer): () => void;
  get(toolName: string): ToolCallRenderer | undefined;
  subscribe(listener: () => void): () => void;
  /** Changes with every registration, for `useSyncExternalStore`. */
  version(): number;
}

/** A registry per `TetherProvider`: renderers live as long as the components that registered them. */
export function createToolRenderers(): ToolRenderers {
  const renderers = new Map<string, ToolCallRenderer>();
  const listeners = new Set<() => void>();
  let version = 0;
  const changed = () => {
    version++;
    for (const listener of listeners) listener();
  };
  return {
    register(toolName, render) {
      renderers.set(toolName, render);
      changed();
      return () => {
        if (renderers.get(toolName) !== render) return;
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
