import { useSyncExternalStore } from "react";

/** A countdown on the page: what it times, and when it ends. */
export interface KitchenTimer {
  id: string;
  label: string;
  seconds: number;
  /** Epoch milliseconds; the countdown is done from then on. */
  endsAt: number;
}

/** The page's running countdowns, kept in the tab's storage so a reload keeps them running. */
export interface KitchenTimers {
  start(timer: { id: string; label: string; seconds: number }): KitchenTimer;
  /** Stops a countdown early, or clears one that is done. */
  remove(id: string): void;
  list(): KitchenTimer[];
  subscribe(listener: () => void): () => void;
}

const KEY = "recipes:timers";

export function createKitchenTimers(storage: Storage = sessionStorage, now: () => number = Date.now): KitchenTimers {
  let timers = read(storage);
  const listeners = new Set<() => void>();
  const save = (next: KitchenTimer[]) => {
    timers = next;
    storage.setItem(KEY, JSON.stringify(timers));
    for (const listener of listeners) listener();
  };
  return {
    start({ id, label, seconds }) {
      // The same call again (a reload that runs it again) keeps the countdown it already started.
      const existing = timers.find((timer) => timer.id === id);
      if (existing) return existing;
      const timer = { id, label, seconds, endsAt: now() + seconds * 1000 };
      save([...timers, timer]);
      return timer;
    },
    remove: (id) => save(timers.filter((timer) => timer.id !== id)),
    list: () => timers,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useKitchenTimers(timers: KitchenTimers): KitchenTimer[] {
  return useSyncExternalStore(timers.subscribe, timers.list);
}

function read(storage: Storage): KitchenTimer[] {
  try {
    const stored = JSON.parse(storage.getItem(KEY) ?? "[]") as unknown;
    return Array.isArray(stored) ? (stored as KitchenTimer[]) : [];
  } catch {
    return [];
  }
}
