import type { BrowserToolSpec, ToolOutcome } from "../../protocol/index.ts";

export interface ToolExecution {
  toolCallId: string;
  runId: string;
  threadId: string;
  /** The mode the app set with `session.setMode` when the call ran. */
  mode: string;
}

/** A browser tool and the code that performs it; `execute` gets the arguments typed by the tool's schema. */
export interface BrowserToolHandler<Args = any> {
  spec: BrowserToolSpec<Args>;
  /** Performs the call and says what really happened. Throwing counts as `failed` / `executor_failed`. */
  execute(args: Args, execution: ToolExecution): ToolOutcome | Promise<ToolOutcome>;
  /**
   * Modes the tool may act in: strings the app defines and sets with
   * `session.setMode` (@tether-agent/tether/react's panel uses its `PanelMode`). In any other
   * mode the call is blocked (`blocked_by_mode`) before its arguments are even
   * checked: a screen behind a full-screen or modal assistant must not change
   * under the user.
   */
  modes?: string[];
  /**
   * A call the page reload interrupted: `report` its outcome as `unknown`
   * (the default: it may or may not have happened), or `run-again`.
   */
  onReload?: "report" | "run-again";
}

export interface ToolRegistry {
  register<Args>(handler: BrowserToolHandler<Args>): () => void;
  get(name: string): BrowserToolHandler | undefined;
  list(): BrowserToolHandler[];
  /** Notified when tools come and go. */
  subscribe(listener: () => void): () => void;
}

export function createToolRegistry(): ToolRegistry {
  const handlers = new Map<string, BrowserToolHandler>();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  return {
    register(handler) {
      handlers.set(handler.spec.name, handler);
      changed();
      return () => {
        if (handlers.get(handler.spec.name) !== handler) return;
        handlers.delete(handler.spec.name);
        changed();
      };
    },
    get: (name) => handlers.get(name),
    list: () => [...handlers.values()],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
