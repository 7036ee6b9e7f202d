import type { SessionState } from "./session-types.ts";

/** A session's state, and the listeners that hear of its changes. */
export interface SessionStore {
  /** The state as it is now. */
  get(): SessionState;
  /** Merges the patch in at once; listeners hear of it with the next frame. */
  set(patch: Partial<SessionState>): void;
  /** Adds a listener; returns what removes it. */
  subscribe(listener: () => void): () => void;
}

/** Holds a session's state: it changes at once, and its listeners hear of it at most once a frame. */
export function createSessionStore(initial: SessionState): SessionStore {
  const listeners = new Set<() => void>();
  let state = initial;

  // The state changes at once; listeners hear of it at most once a frame, however many tokens arrived.
  let notifying = false;
  const notify = () => {
    notifying = false;
    for (const listener of listeners) listener();
  };

  return {
    get: () => state,
    set(patch) {
      state = { ...state, ...patch };
      if (notifying) return;
      notifying = true;
      if (typeof requestAnimationFrame === "function") requestAnimationFrame(notify);
      else setTimeout(notify, 0);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
