import { useSyncExternalStore } from "react";

/** The content area's location, changed with the History API: no page reload, ever. */
const listeners = new Set<() => void>();
/** Bumped by every navigation and refresh, so a screen asked for again shows fresh data. */
let visit = 0;
const notify = () => {
  visit++;
  for (const listener of listeners) listener();
};
window.addEventListener("popstate", notify);

export function go(path: string): void {
  // Asking for the screen already showing refreshes it, as a menu click would be expected to.
  if (path !== location.pathname) history.pushState(null, "", path);
  notify();
}

/** Shows the current screen's data again (after the assistant changed something). */
export function refresh(): void {
  notify();
}

export function useVisit(): number {
  return useSyncExternalStore(subscribe, () => visit);
}

/** Replaces the current entry (a redirect), without adding to the history. */
export function replace(path: string): void {
  history.replaceState(null, "", path);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePath(): string {
  return useSyncExternalStore(subscribe, () => location.pathname);
}

/** Matches `/work-requests/:requestId` style routes; the params, or undefined. */
export function matchRoute(route: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = new RegExp(`^${route.replace(/:([A-Za-z]+)/g, (_, name: string) => (names.push(name), "([^/]+)"))}/?$`);
  const match = pattern.exec(path);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1]!)]));
}
