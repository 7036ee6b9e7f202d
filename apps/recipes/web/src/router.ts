import { useSyncExternalStore } from "react";

/** Where the app is served; its own routes are below it. */
export const BASE = "/recipes";

/**
 * The page's location, changed with the History API (no reload): the route
 * under BASE (`/`, `/cookbook`) and what the query holds (the open recipe and
 * step, `?device=mobile`).
 */
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener("popstate", notify);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The route under BASE: `/` or `/cookbook`. */
export function usePath(): string {
  return useSyncExternalStore(subscribe, currentPath);
}

export function useQuery(name: string): string | undefined {
  return useSyncExternalStore(subscribe, () => new URLSearchParams(location.search).get(name) ?? undefined);
}

function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return path === "" ? "/" : path;
}

/** Goes to a route under BASE, keeping the query the app lives by (the device). */
export function go(path: string, query: Record<string, string | undefined> = {}): void {
  const url = urlWith(`${BASE}${path}`, query);
  if (url !== `${location.pathname}${location.search}`) history.pushState(null, "", url);
  notify();
}

/** Changes the query in place (the step the person is on), without adding to the history. */
export function replaceQuery(query: Record<string, string | undefined>): void {
  history.replaceState(null, "", urlWith(location.pathname, query));
  notify();
}

function urlWith(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) params.delete(name);
    else params.set(name, value);
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
