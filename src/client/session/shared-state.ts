import type { AgentSubscriber } from "@ag-ui/client";
import { TetherError } from "../../protocol/index.ts";
import { cloneJson, createStateEdits, type JsonPatchOperation, type SharedState } from "../state/index.ts";
import type { TetherHttpAgent } from "../transport/index.ts";
import type { SessionStore } from "./session-store.ts";

/** What the person passes to `session.setState`: the next state, or how to make it from the one shown. */
export type StateUpdate = SharedState | ((current: SharedState) => SharedState);

/** What `createSessionSharedState` returns. */
export type SessionSharedState = ReturnType<typeof createSessionSharedState>;

/**
 * The session's side of the agent's shared state: what the page shows
 * (`SessionState.state`), the person's edits, and `agent.state`, which the
 * next request carries.
 *
 * `@ag-ui/client` starts each run's state from the request's copy and writes
 * every snapshot and delta into `agent.state`, so a person's edit written
 * there while a run streams would be overwritten by the next delta. While the
 * agent runs (or a followed run streams) the edit is kept by the state edits
 * (`../state`) and written into `agent.state` when the run ends; while idle,
 * at once.
 */
export function createSessionSharedState(deps: { agent: TetherHttpAgent; store: Pick<SessionStore, "set"> }) {
  const { agent, store } = deps;
  const edits = createStateEdits();
  // The STATE_DELTA being applied, for the conflicts it causes (its onStateChanged comes right after it).
  let delta: JsonPatchOperation[] | undefined;

  const show = () => store.set({ state: edits.shown(), stateConflicts: edits.conflicts() });
  /** Puts what is shown into `agent.state`, where the next request reads it: only once no run writes there. */
  const write = () => {
    if (!agent.isRunning) agent.setState(edits.shown());
  };

  /** The session's subscriber's part: the state as the reference pipeline computes it from the run's events. */
  const subscriber: AgentSubscriber = {
    onStateSnapshotEvent: () => {
      delta = undefined;
    },
    onStateDeltaEvent: ({ event }) => {
      delta = event.delta as JsonPatchOperation[];
    },
    onStateChanged: ({ state }) => {
      edits.receive(isObject(state) ? state : {}, delta);
      delta = undefined;
      show();
    },
  };

  return {
    subscriber,

    /** The person's edit: the whole next state, or a function of the one shown (given a copy it may change). */
    set(update: StateUpdate): void {
      const next = typeof update === "function" ? update(cloneJson(edits.shown())) : update;
      edits.edit(jsonObject(next));
      write();
      show();
    },

    /** The stored thread's state (a reload, a catch-up): the agent's state, with this page's unsent edits on it. */
    loaded(state: unknown): void {
      if (state === undefined) return; // a server that keeps no state says nothing of it
      edits.receive(isObject(state) ? state : {});
      write();
      show();
    },

    /** Call just before `agent.runAgent`: the request is made from `agent.state`, which holds what is shown. */
    sending(): void {
      edits.send();
    },

    /** Call before following a run: the reference pipeline starts from `agent.state`, which must be the server's copy. */
    following(): void {
      agent.setState(edits.base());
    },

    /** A run streamed or followed to its end: the edits made meanwhile go into `agent.state`, for the next request. */
    ended(started: boolean): void {
      edits.settle(started);
      write();
      show();
    },

    /** The person starts a new round (a message, an answer, a click): the conflicts shown so far are behind them. */
    clearConflicts(): void {
      if (edits.conflicts().length === 0) return;
      edits.clearConflicts();
      show();
    },
  };
}

const isObject = (value: unknown): value is SharedState => typeof value === "object" && value !== null && !Array.isArray(value);

/** The person's state as plain JSON (what the wire carries); anything else is refused at once, with a code. */
function jsonObject(value: unknown): SharedState {
  if (!isObject(value)) throw new TetherError("invalid_state", "The agent's state must be a JSON object: setState was given " + describe(value) + ".");
  try {
    return JSON.parse(JSON.stringify(value)) as SharedState;
  } catch (error) {
    throw new TetherError("invalid_state", "The agent's state must be JSON: " + (error instanceof Error ? error.message : String(error)), { cause: error });
  }
}

const describe = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`);
