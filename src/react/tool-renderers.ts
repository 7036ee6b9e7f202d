import { createContext, type ReactNode } from "react";
import type { ToolActivity } from "../client/index.ts";
import type { ServerToolRenderer } from "./server-tool-call.ts";

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

/** The views of one provider's tools, by tool name: browser tools' (useBrowserTool) and server tools' (useToolRenderer). */
export interface ToolRenderers {
  register(toolName: string, view: ToolView): () => void;
  get(toolName: string): ToolView | undefined;
  /** How a server tool's calls are drawn; kept apart from browser tools' views, so neither hook replaces the other's. */
  registerServer(toolName: string, render: ServerToolRenderer): () => void;
  getServer(toolName: string): ServerToolRenderer | undefined;
  subscribe(listener: () => void): () => void;
  /** Changes with every registration, for `useSyncExternalStore`. */
  version(): number;
}

/** A registry per `TetherProvider`: views live as long as the components that registered them. */
export function createToolRenderers(): ToolRenderers {
  const views = new Map<string, ToolView>();
  const serverRenderers = new Map<string, ServerToolRenderer>();
  const listeners = new Set<() => void>();
  let version = 0;
  const changed = () => {
    version++;
    for (const listener of listeners) listener();
  };
  /** Sets an entry; what it returns removes it, unless a later registration has replaced it since. */
  const register = <Entry>(entries: Map<string, Entry>, toolName: string, entry: Entry) => {
    entries.set(toolName, entry);
    changed();
    return () => {
      if (entries.get(toolName) !== entry) return;
      entries.delete(toolName);
      changed();
    };
  };
  return {
    register: (toolName, view) => register(views, toolName, view),
    get: (toolName) => views.get(toolName),
    registerServer: (toolName, render) => register(serverRenderers, toolName, render),
    getServer: (toolName) => serverRenderers.get(toolName),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
  };
}

/** The nearest `TetherProvider`'s renderers; `undefined` outside one. */
export const ToolRenderersContext = createContext<ToolRenderers | undefined>(undefined);
