import { useEffect } from "react";

/**
 * A screen says when its data is on display; navigation waits for it, so
 * "displayed" in an outcome means the user can see the data, not only that
 * the address changed.
 */
const waiting = new Map<string, Set<() => void>>();
let shownPath: string | undefined;

/** Whether this path's screen is the one showing, with its data loaded. */
export function isDisplayed(path: string): boolean {
  return shownPath === path && location.pathname === path;
}

export function whenDisplayed(path: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const waiters = waiting.get(path) ?? new Set();
    waiting.set(path, waiters);
    const done = (shown: boolean) => {
      clearTimeout(timer);
      waiters.delete(onShown);
      resolve(shown);
    };
    const onShown = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    waiters.add(onShown);
  });
}

/** The screen at `path` shows its data: wakes whoever waits for it. */
export function markDisplayed(path: string): void {
  shownPath = path;
  for (const resolve of [...(waiting.get(path) ?? [])]) resolve();
}

/** Call from a screen: `loaded` turns true once its data rendered. */
export function useDisplayed(path: string, loaded: boolean): void {
  useEffect(() => {
    if (!loaded) return;
    markDisplayed(path);
    return () => {
      if (shownPath === path) shownPath = undefined;
    };
  }, [path, loaded]);
}
