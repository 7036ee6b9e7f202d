import { useSyncExternalStore } from "react";

/** The content area's location, changed with the History API: no page reload, ever. */
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener("popstate", notify);

export function go(path: string): void {
  if (path === location.pathname) return;
  history.pushState(null, "", path);
  notify();
}

/** Replaces the current entry (a redirect), without adding to the history. */
export function replace(path: string): void {
  history.replaceState(null, "", path);
  notify();
}

export function usePath(): string {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => location.pathname,
  );
}

/** Matches `/work-requests/:requestId` style routes; the params, or undefined. */
export function matchRoute(route: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = new RegExp(`^${route.replace(/:([A-Za-z]+)/g, (_, name: string) => (names.push(name), "([^/]+)"))}/?$`);
  const match = pattern.exec(path);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
}
