import { useSyncExternalStore, type MouseEvent } from "react";

/** Where the app is served; a feature's page is BASE/<feature id>, as the dojo's are /<integration>/feature/<feature id>. */
export const BASE = "/dojo";

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
window.addEventListener("popstate", notify);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return path.replace(/\/+$/, "") || "/";
}

/** The route under BASE: `/` (the index) or `/<feature id>`. */
export function usePath(): string {
  return useSyncExternalStore(subscribe, currentPath);
}

/** Goes to a route under BASE without a reload. */
export function go(path: string): void {
  const url = path === "/" ? `${BASE}/` : `${BASE}${path}`;
  if (url !== location.pathname) history.pushState(null, "", url);
  notify();
}

/** A link's click handler that stays in the app; a click with a modifier opens the link as the browser would. */
export function followLink(path: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    go(path);
  };
}

export const hrefOf = (path: string) => (path === "/" ? `${BASE}/` : `${BASE}${path}`);
