import { TetherError } from "@tether-agent/tether/protocol";
import { createMemoryRunStore, type RunStore } from "@tether-agent/tether/store";

const WRITES = new Set(["beginRun", "appendEvents", "commitStep", "finishRun", "endLostRun", "appendLog", "addReport"]);

/**
 * A memory store that plays a shared database this instance can lose: `lose`
 * tells the app, as the PostgreSQL store does when its liveness lock's
 * connection breaks; while `down`, every write fails as the database's would.
 */
export function losableStore() {
  const store = createMemoryRunStore();
  const listeners: Array<(error: unknown) => void> = [];
  let down = false;
  const losable = new Proxy(store, {
    get(target, key, receiver) {
      if (key === "onOwnershipLost") return (listener: (error: unknown) => void) => void listeners.push(listener);
      const value = Reflect.get(target, key, receiver) as (...args: unknown[]) => Promise<unknown>;
      if (typeof key !== "string" || !WRITES.has(key)) return value;
      return async (...args: unknown[]) => {
        if (down) throw new TetherError("store_unavailable", "Could not store: PostgreSQL failed (ECONNREFUSED).");
        return value.apply(target, args);
      };
    },
  }) as RunStore;
  return {
    store: losable,
    lose: (options: { down: boolean }) => {
      down = options.down;
      for (const listener of listeners) listener(new Error("Connection terminated unexpectedly"));
    },
    up: () => (down = false),
  };
}
