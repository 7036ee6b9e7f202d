import { EventType, type BaseEvent } from "@ag-ui/core";
import untruncateJsonModule from "untruncate-json";

/**
 * Predictive state: while the model streams a call to `tool`, its `argument`
 * (as far as it has arrived) is shown as the state's `stateKey`, so a page
 * shows a document or a recipe growing before the call ends. The tool's own
 * change, once it runs, replaces the prediction.
 */
export interface PredictedState {
  tool: string;
  argument: string;
  stateKey: string;
}

/** Where the predictions go: the run's events, and the state holder that shows them. */
export interface PredictionTarget {
  emit(event: BaseEvent): void;
  predict(stateKey: string, value: unknown): void;
}

/** A call as it streams: its name and the arguments' text so far. */
export interface StreamingCall {
  toolCallId: string;
  toolName: string;
  argumentsText: string;
}

export interface StatePredictor {
  /** Before the call's TOOL_CALL_START: announces the prediction (CopilotKit's `PredictState` event). */
  started(call: StreamingCall): void;
  /** After each arguments delta: predicts from what has arrived, at most once per `everyMs`. */
  streamed(call: StreamingCall): void;
  /** Once the arguments are complete: predicts from all of them. */
  ended(call: StreamingCall): void;
}

/** Re-reading the arguments is linear in their length: often enough to look live, not once per token. */
const DEFAULT_EVERY_MS = 50;

// untruncate-json ships CommonJS with an ES module beside it: Node hands the former's exports object, bundlers the function.
const untruncateJson: (text: string) => string =
  typeof untruncateJsonModule === "function" ? untruncateJsonModule : (untruncateJsonModule as unknown as { default: (text: string) => string }).default;

/**
 * Follows the calls of one model step for the agent's predictive-state
 * rules. Partial arguments are completed with untruncate-json, the library
 * `@ag-ui/client` reads partial tool arguments with, so a page and the server
 * read the same prefix alike.
 */
export function createStatePredictor(rules: readonly PredictedState[], target: PredictionTarget, options: { everyMs?: number; now?: () => number } = {}): StatePredictor {
  const everyMs = options.everyMs ?? DEFAULT_EVERY_MS;
  const now = options.now ?? (() => performance.now());
  const lastAt = new Map<string, number>();
  const lastJson = new Map<string, string>();
  const rulesOf = (toolName: string) => rules.filter((rule) => rule.tool === toolName);

  const predict = (call: StreamingCall, complete: boolean) => {
    const matching = rulesOf(call.toolName);
    if (matching.length === 0) return;
    const args = readArguments(call.argumentsText, complete);
    if (!args) return;
    for (const rule of matching) {
      if (!(rule.argument in args)) continue;
      const value = args[rule.argument];
      const key = `${call.toolCallId}\u0000${rule.stateKey}`;
      const json = JSON.stringify(value);
      if (lastJson.get(key) === json) continue;
      lastJson.set(key, json);
      target.predict(rule.stateKey, value);
    }
  };

  return {
    started(call) {
      const matching = rulesOf(call.toolName);
      if (matching.length === 0) return;
      target.emit({
        type: EventType.CUSTOM,
        name: "PredictState",
        value: matching.map((rule) => ({ state_key: rule.stateKey, tool: rule.tool, tool_argument: rule.argument })),
      } as BaseEvent);
    },
    streamed(call) {
      if (rulesOf(call.toolName).length === 0) return;
      const at = now();
      if (at - (lastAt.get(call.toolCallId) ?? -Infinity) < everyMs) return;
      lastAt.set(call.toolCallId, at);
      predict(call, false);
    },
    ended(call) {
      predict(call, true);
    },
  };
}

/** The arguments as an object: parsed whole once complete, completed from their prefix while they stream. */
function readArguments(text: string, complete: boolean): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  try {
    const value: unknown = JSON.parse(complete ? text : untruncateJson(text));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // a prefix untruncate-json cannot complete (mid-escape, say): the next delta will do
  }
}
