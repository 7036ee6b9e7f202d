import type { JsonPatchOperation } from "@ag-ui/core";
import { TetherError } from "../../protocol/index.ts";
import type { AgentState } from "../store/index.ts";
import { diffOperations } from "./json-patch.ts";
import type { StateSchema } from "./state-schema.ts";

/** What a run starts from, as the request, the thread and the agent decide it. */
export interface StartingState {
  start: AgentState;
  /** To store as the thread's and the run's state as the run begins: the start, when the thread did not hold it already. */
  store?: AgentState;
  /** The person's edit between runs (server mode): the JSON Patch from what the thread held to what the request sent. */
  edit?: JsonPatchOperation[];
  /** Whether the run opens with a STATE_SNAPSHOT: the thread has state, or the agent declares one. */
  announce: boolean;
}

/**
 * Decides the state a run starts from, and refuses (`invalid_state`) a
 * request's state the agent cannot take, before anything is stored.
 *
 * - Server history: a request state that is absent, null or `{}` was not sent
 *   (`HttpAgent` starts at `{}` and always sends its state, so a fresh client
 *   would otherwise wipe the thread): the run starts from the thread's state,
 *   else the agent's initial one, else `{}`. A request state that differs is
 *   the person's edit made in the page between runs, and wins.
 * - Client history: the request's state, else the initial one: never the
 *   stored copy, so a stateless agent behaves the same on any instance.
 */
export function startingState(options: {
  agentId: string;
  mode: "server" | "client";
  /** The request's `state`, unchecked. */
  requested: unknown;
  /** The thread's stored state; absent for a new thread or one that never had any. */
  stored: AgentState | undefined;
  schema: StateSchema;
  /** The agent's declared state (its initial value), when it declares one. */
  declared?: { initial?: AgentState };
}): StartingState {
  const { stored, declared } = options;
  // Checked as it will be stored and sent: a number JSON cannot carry (1e400 parses to Infinity) is null by then.
  const requested = asSentJson(options.requested);
  const notSent = requested === undefined || requested === null || isEmptyObject(requested);
  if (!notSent) {
    const refusal = options.schema.check(requested);
    if (refusal) {
      throw new TetherError("invalid_state", `The request's state was refused for agent "${options.agentId}": it ${refusal.reason}.`, {
        ...(refusal.details === undefined ? {} : { details: refusal.details }),
      });
    }
  }
  const initial = declared?.initial ?? {};
  const otherwise = options.mode === "server" ? (stored ?? initial) : initial;
  const start = notSent ? otherwise : (requested as AgentState);
  const edit = options.mode === "server" && !notSent ? diffOperations(otherwise, start) : [];
  return {
    start,
    ...(diffOperations(stored ?? {}, start).length > 0 ? { store: start } : {}),
    ...(edit.length > 0 ? { edit } : {}),
    announce: declared !== undefined || stored !== undefined || !isEmptyObject(start),
  };
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** The value as JSON carries it; what JSON cannot hold at all (a cycle cannot come from a parsed body) is kept as it is, for the check to refuse. */
function asSentJson(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return value;
  }
}
