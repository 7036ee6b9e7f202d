import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionState } from "./session-types.ts";
import { createSessionStore } from "./session-store.ts";

const initial: SessionState = {
  threadId: "t1",
  messages: [],
  activities: [],
  running: false,
  observing: false,
  mode: "side",
  interrupts: [],
  stoppedMessageIds: [],
  state: {},
  stateConflicts: [],
};

afterEach(() => vi.useRealTimers());

describe("a session's state", () => {
  it("changes at once, and its listeners hear of a burst of changes once, with the last state", () => {
    vi.useFakeTimers(); // no requestAnimationFrame here: the store falls back to a timer
    const store = createSessionStore(initial);
    const heard: SessionState[] = [];
    store.subscribe(() => heard.push(store.get()));
    store.set({ running: true });
    store.set({ runId: "r1" });
    expect(store.get()).toMatchObject({ running: true, runId: "r1", threadId: "t1" });
    expect(heard).toEqual([]);
    vi.runAllTimers();
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ running: true, runId: "r1" });
    store.set({ running: false });
    vi.runAllTimers();
    expect(heard).toHaveLength(2);
  });

  it("gives a new state object on each change, so a view comparing by identity sees it", () => {
    const store = createSessionStore(initial);
    const before = store.get();
    store.set({ mode: "full" });
    expect(store.get()).not.toBe(before);
    expect(before.mode).toBe("side");
  });

  it("stops telling a listener once it is removed", () => {
    vi.useFakeTimers();
    const store = createSessionStore(initial);
    const listener = vi.fn();
    const remove = store.subscribe(listener);
    remove();
    store.set({ running: true });
    vi.runAllTimers();
    expect(listener).not.toHaveBeenCalled();
  });
});
