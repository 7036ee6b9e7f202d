import { applyInPlace, cloneJson, diffState, type JsonPatchOperation } from "./json-patch.ts";

/** An agent's shared state: a JSON object (AG-UI `state`). */
export type SharedState = Record<string, unknown>;

/** A person's edit that no longer applies to the agent's state: dropped from what is shown and sent, and told. */
export interface StateConflict {
  /** Where the edit was (a JSON Pointer): `/recipe/servings`. */
  path: string;
  /** The person's operation that was dropped. */
  operation: JsonPatchOperation;
  /** fast-json-patch's name for why: `OPERATION_PATH_UNRESOLVABLE`, `OPERATION_PATH_CANNOT_ADD`, `TEST_OPERATION_FAILED`… */
  reason: string;
  /** The agent's STATE_DELTA it met; absent when a whole snapshot replaced the state. */
  delta?: JsonPatchOperation[];
}

/** The person's edits on top of the agent's state: see `createStateEdits`. */
export interface StateEdits {
  /** What the page shows: the agent's state with the person's edits on it. */
  shown(): SharedState;
  /** The agent's state as the server last gave it (or as the last request carried it). */
  base(): SharedState;
  /** Edits dropped because they no longer applied, oldest first. */
  conflicts(): StateConflict[];
  /** Whether the person made edits that no request has carried yet. */
  hasPending(): boolean;
  /** The person set the state to `next`: the difference from what is shown is kept as operations. */
  edit(next: SharedState): void;
  /** The agent's state changed (a snapshot, a delta, a loaded thread): the person's edits are replayed on it. */
  receive(state: SharedState, delta?: JsonPatchOperation[]): void;
  /** A request carries what is shown: its edits are in flight, and the server starts from them. */
  send(): void;
  /** The request's run ended; `started` says whether the server ever took it (else its edits wait for the next). */
  settle(started: boolean): void;
  /** Forgets the conflicts told so far. */
  clearConflicts(): void;
}

/**
 * The rule for a person's edits while the agent changes the same state: the
 * person's edit wins on the paths it touched, the agent's deltas win
 * everywhere else, and the edit reaches the agent with the next request.
 *
 * The person's edits are kept as JSON Patch operations (`pending`) until a
 * request carries them, and replayed, one by one, on each new state the
 * agent sends. An operation that no longer applies (the agent removed what
 * it changed, or the list it indexed got shorter) is dropped and reported
 * in `conflicts()`, never lost in silence. A `remove` of something the agent
 * removed as well is not a conflict: the state is as the person wanted it.
 *
 * Paths are positional: an edit of `/steps/2` lands on whatever is third
 * after the agent inserted before it. Shared lists are best edited whole.
 *
 * @example
 * const edits = createStateEdits();
 * edits.receive({ recipe: { title: "Soup" } });
 * edits.edit({ recipe: { title: "Leek soup" } });
 * edits.receive({ recipe: { title: "Stew", servings: 2 } });
 * edits.shown(); // { recipe: { title: "Leek soup", servings: 2 } }
 */
export function createStateEdits(initial: SharedState = {}): StateEdits {
  let base = cloneJson(initial);
  let pending: JsonPatchOperation[] = [];
  // What the last request carried, until its run starts (then it is in `base`) or never does (then it is pending again).
  let inFlight: { base: SharedState; operations: JsonPatchOperation[] } | undefined;
  let shown = base;
  let conflicts: StateConflict[] = [];

  /** Replays the pending operations on `base`, dropping (and telling) those that no longer apply. */
  const rebase = (delta?: JsonPatchOperation[]) => {
    let document = cloneJson(base);
    const kept: JsonPatchOperation[] = [];
    for (const operation of pending) {
      try {
        document = applyInPlace(document, operation);
        kept.push(operation);
      } catch (error) {
        const reason = error instanceof Error ? error.name : "OPERATION_FAILED";
        // Removing what the agent removed as well leaves the state as the person wanted it.
        if (operation.op === "remove" && reason === "OPERATION_PATH_UNRESOLVABLE") continue;
        conflicts = [...conflicts, { path: operation.path, operation, reason, ...(delta ? { delta: cloneJson(delta) } : {}) }];
      }
    }
    pending = kept;
    // The same content keeps the same object, so a page selecting the state is not rendered again for nothing.
    if (diffState(shown, document).length > 0) shown = document;
  };

  return {
    shown: () => shown,
    base: () => base,
    conflicts: () => conflicts,
    hasPending: () => pending.length > 0,
    edit(next) {
      const operations = diffState(shown, next);
      if (operations.length === 0) return;
      pending = [...pending, ...operations];
      rebase();
    },
    receive(state, delta) {
      // A state from the server means the run it came with started: what its request carried is in it.
      inFlight = undefined;
      base = cloneJson(state);
      rebase(delta);
    },
    send() {
      inFlight = { base, operations: pending };
      base = shown;
      pending = [];
    },
    settle(started) {
      if (inFlight && !started) {
        base = inFlight.base;
        pending = [...inFlight.operations, ...pending];
        rebase();
      }
      inFlight = undefined;
    },
    clearConflicts() {
      conflicts = [];
    },
  };
}
