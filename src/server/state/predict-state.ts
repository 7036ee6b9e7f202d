import { EventType, type BaseEvent } from "@ag-ui/core";
import untruncateJsonModule from "untruncate-json";
import { TetherError } from "../../protocol/index.ts";
import { STATE_SIZE_LIMIT } from "./state-schema.ts";

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
/** And longer between predictions as the value grows: a 20 KiB document is re-sent every quarter second. */
const MS_PER_KIB = 10;
/** Nesting a predicted value may have; deeper ones are not shown (a state never needs them, and each layer costs stack). */
const MAX_DEPTH = 32;

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
  // When each call may next be read, and what each of its keys last showed.
  const nextAt = new Map<string, number>();
  const lastJson = new Map<string, string>();
  const rulesOf = (toolName: string) => rules.filter((rule) => rule.tool === toolName);

  /** The size of what it showed, in characters of JSON; undefined when the arguments held nothing to show. */
  const predict = (call: StreamingCall, complete: boolean): number | undefined => {
    const matching = rulesOf(call.toolName);
    const args = readArguments(call.argumentsText, complete);
    if (!args || !matching.some((rule) => rule.argument in args)) return undefined;
    let size = 0;
    for (const rule of matching) {
      if (!(rule.argument in args)) continue;
      const value = args[rule.argument];
      const key = `${call.toolCallId}\u0000${rule.stateKey}`;
      // A prediction is a courtesy: a value too deep or too large to be a state is not shown (the tool's own change still is).
      const json = depthWithin(value, MAX_DEPTH) ? safeJson(value) : undefined;
      if (json === undefined || json.length > STATE_SIZE_LIMIT) continue;
      size += json.length;
      if (lastJson.get(key) === json) continue;
      lastJson.set(key, json);
      target.predict(rule.stateKey, value);
    }
    return size;
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
      if (at < (nextAt.get(call.toolCallId) ?? -Infinity)) return;
      const size = predict(call, false);
      // Each prediction sends the value whole: the larger it grew, the longer until the next, so a long document costs linearly more, not quadratically.
      if (size !== undefined) nextAt.set(call.toolCallId, at + everyMs + Math.floor(size / 1024) * MS_PER_KIB);
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

/** Whether the value nests no deeper than `limit`, checked without recursion. */
function depthWithin(value: unknown, limit: number): boolean {
  const open: Array<[unknown, number]> = [[value, 0]];
  while (open.length > 0) {
    const [item, depth] = open.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth >= limit) return false;
    for (const child of Object.values(item)) open.push([child, depth + 1]);
  }
  return true;
}

function safeJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
