import { EventType, type BaseEvent, type JsonPatchOperation } from "@ag-ui/core";
import { TetherError } from "../../protocol/index.ts";
import type { AgentState } from "../store/index.ts";
import { applyOperations, diffOperations, patchFailure } from "./json-patch.ts";
import { ANY_OBJECT_STATE, type StateSchema } from "./state-schema.ts";

/**
 * A run's shared state, and the one way to change it: every change is checked
 * against the agent's schema, applied, and streamed at once as the event a
 * client applies to land on the same value. Server tools get it as
 * `context.state`; upstream agents and engines change it through it too.
 *
 * @example
 * execute: ({ title }, { state }) => {
 *   state.patch([{ op: "replace", path: "/recipe/title", value: title }]);
 *   return state.get().recipe;
 * }
 */
export interface RunState<S extends object = AgentState> {
  /** The current state, deep-frozen: change it with `patch`, `set` or `replace`, never by hand. */
  get(): Readonly<S>;
  /**
   * Applies RFC 6902 operations (as `@ag-ui/client` applies them) and streams
   * them as one STATE_DELTA. A patch that does not apply, or leaves a state the
   * agent's schema refuses, throws `state_patch_invalid` naming the operation;
   * then nothing changed and nothing was sent. A `test` operation guards
   * against a parallel tool's change.
   */
  patch(operations: JsonPatchOperation[]): void;
  /** Makes the state `next`, streamed as the smallest patch that gets there (nothing when it is equal). */
  set(next: S): void;
  /** Replaces the state whole, streamed as a STATE_SNAPSHOT (nothing when it is equal). For an agent's own snapshot. */
  replace(snapshot: S): void;
  /**
   * Shows `value` as the state's `key` before any tool set it (predictive
   * state: a call's argument as it streams), streamed as a STATE_DELTA. Not
   * checked, not stored, not what `get` reads: the next change replaces it,
   * and `settle` takes back what no change confirmed.
   */
  predict(key: string, value: unknown): void;
  /** Takes back the predictions no change confirmed, streamed as the delta back to the state (at a step's end). */
  settle(): void;
  /** Whether it changed since the last `take`. */
  changed(): boolean;
  /** The state, when it changed since the last `take` (for the run's next write to the store); undefined when not. */
  take(): S | undefined;
}

/**
 * The holder of one run's state. `emit` streams the run's events; each change
 * is synchronous, so parallel tools' changes are applied and streamed in one
 * order, and a client applying them in stream order ends where the server did.
 */
export function createRunState<S extends object = AgentState>(options: {
  initial: S;
  /** The agent's compiled state schema; any JSON object when absent. */
  schema?: StateSchema;
  emit(event: BaseEvent): void;
}): RunState<S> {
  const schema = options.schema ?? ANY_OBJECT_STATE;
  let current = deepFreeze(asJson(options.initial) as S);
  // What clients were last sent: the state, or the state with predictions over it.
  let shown: object = current;
  let dirty = false;
  const emitDelta = (delta: JsonPatchOperation[]) => options.emit({ type: EventType.STATE_DELTA, delta } as BaseEvent);
  /** Makes the state `next` and sends clients what takes them there: the operations as given, or from a prediction the difference. */
  const commitChange = (next: S, operations: JsonPatchOperation[]) => {
    const delta = shown === current ? operations : diffOperations(shown, next);
    current = deepFreeze(next);
    shown = current;
    dirty = true;
    if (delta.length > 0) emitDelta(delta);
  };

  const refused = (operations: unknown, why: string, details?: unknown) =>
    new TetherError("state_patch_invalid", `The state change (${describe(operations)}) was refused: ${why}. The state is unchanged.`, {
      ...(details === undefined ? {} : { details }),
    });

  const patch = (given: JsonPatchOperation[]) => {
    if (!Array.isArray(given)) throw refused(given, "a patch is an array of JSON Patch operations");
    let operations: JsonPatchOperation[];
    try {
      operations = asJson(given) as JsonPatchOperation[];
    } catch (error) {
      throw refused(given, `it is not JSON (${(error as Error).message})`);
    }
    if (operations.length === 0) return;
    let next: S;
    try {
      // The library keeps the operations' values by reference: they are this holder's own copy.
      next = applyOperations(current, asJson(operations) as JsonPatchOperation[]);
    } catch (error) {
      throw refused(operations, patchFailure(error).why);
    }
    const refusal = schema.check(next);
    if (refusal) throw refused(operations, `the state it leaves ${refusal.reason}`, refusal.details);
    // A patch that changes nothing (a lone `test`) is not news.
    if (diffOperations(current, next).length === 0) return;
    commitChange(next, operations);
  };

  return {
    get: () => current,
    patch,
    set(next) {
      let value: object;
      try {
        value = asJson(next) as object;
      } catch (error) {
        throw refused("set", `the new state is not JSON (${(error as Error).message})`);
      }
      // Anything but an object is refused by the schema check, as a replace of the whole state.
      const operations = typeof value === "object" && value !== null ? diffOperations(current, value) : [{ op: "replace" as const, path: "", value }];
      if (operations.length > 0) patch(operations);
    },
    replace(snapshot) {
      let value: unknown;
      try {
        value = asJson(snapshot);
      } catch (error) {
        throw refused("snapshot", `it is not JSON (${(error as Error).message})`);
      }
      const refusal = schema.check(value);
      if (refusal) throw refused("snapshot", `the snapshot ${refusal.reason}`, refusal.details);
      if (diffOperations(current, value as object).length === 0) return;
      current = deepFreeze(value as S);
      shown = current;
      dirty = true;
      options.emit({ type: EventType.STATE_SNAPSHOT, snapshot: asJson(value) } as BaseEvent);
    },
    predict(key, value) {
      let predicted: object;
      try {
        predicted = { ...shown, [key]: asJson(value) };
      } catch {
        return; // a prediction is a courtesy: what JSON cannot carry is not shown
      }
      const delta = diffOperations(shown, predicted);
      if (delta.length === 0) return;
      shown = deepFreeze(predicted);
      emitDelta(delta);
    },
    settle() {
      if (shown === current) return;
      const delta = diffOperations(shown, current);
      shown = current;
      if (delta.length > 0) emitDelta(delta);
    },
    changed: () => dirty,
    take() {
      if (!dirty) return undefined;
      dirty = false;
      return current;
    },
  };
}

/** The operations a refusal names: op and path of the first few. */
function describe(operations: unknown): string {
  if (typeof operations === "string") return operations;
  if (!Array.isArray(operations)) return "not a patch";
  const named = operations.slice(0, 3).map((operation: { op?: unknown; path?: unknown }) => `${String(operation?.op)} ${JSON.stringify(operation?.path)}`);
  return operations.length > 3 ? `${named.join(", ")} and ${operations.length - 3} more` : named.join(", ");
}

/** A copy as JSON would carry it (what a client receives); throws for what JSON cannot hold. */
function asJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
