import { EventType, type BaseEvent } from "@ag-ui/core";
import untruncateJsonModule from "untruncate-json";
import { TetherError } from "../../protocol/index.ts";

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
export function createStatePredictor(
  rules: readonly PredictedState[],
  target: PredictionTarget,
  options: { everyMs?: number; now?: () => number } = {},
): StatePredictor {
  const everyMs = options.everyMs ?? DEFAULT_EVERY_MS;
  const now = options.now ?? (() => performance.now());
  const lastAt = new Map<string, number>();
  const lastJson = new Map<string, string>();
  const rulesOf = (toolName: string) => rules.filter((rule) => rule.tool === toolName);

  /** Whether the arguments held anything to show (the interval then starts again). */
  const predict = (call: StreamingCall, complete: boolean): boolean => {
    const matching = rulesOf(call.toolName);
    const args = readArguments(call.argumentsText, complete);
    if (!args || !matching.some((rule) => rule.argument in args)) return false;
    for (const rule of matching) {
      if (!(rule.argument in args)) continue;
      const value = args[rule.argument];
      const key = `${call.toolCallId}\u0000${rule.stateKey}`;
      const json = JSON.stringify(value);
      if (lastJson.get(key) === json) continue;
      lastJson.set(key, json);
      target.predict(rule.stateKey, value);
    }
    return true;
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
      if (predict(call, false)) lastAt.set(call.toolCallId, at);
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

/**
 * Checks an agent's predictive-state rules once, at definition: each names a
 * tool the agent has (Tether predicts only from its own model's calls), the
 * argument to read and the state key to show it as.
 */
export function checkPredictedState(agentId: string, rules: unknown, toolNames: ReadonlySet<string>, runsModel: boolean): readonly PredictedState[] {
  if (rules === undefined) return [];
  const refuse = (why: string) => new TetherError("config_invalid", `Agent "${agentId}": predictState ${why}.`);
  if (!Array.isArray(rules)) throw refuse("is a list of { tool, argument, stateKey }");
  if (rules.length > 0 && !runsModel) throw refuse("applies to a model Tether runs; an upstream agent or an engine sends its own state");
  return rules.map((rule: Partial<PredictedState> | null, index) => {
    const nonEmpty = (value: unknown) => typeof value === "string" && value.length > 0;
    if (!rule || !nonEmpty(rule.tool) || !nonEmpty(rule.argument) || !nonEmpty(rule.stateKey)) {
      throw refuse(`entry ${index} needs a tool, an argument and a stateKey, each a non-empty string`);
    }
    if (!toolNames.has(rule.tool!)) throw refuse(`entry ${index} names the tool "${rule.tool}", which the agent does not have`);
    return Object.freeze({ tool: rule.tool!, argument: rule.argument!, stateKey: rule.stateKey! });
  });
}
