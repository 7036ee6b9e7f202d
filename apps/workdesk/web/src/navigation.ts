import type { NavigationOutcome } from "../../agent/navigation-outcome.ts";
import type { Screen, User } from "./api.ts";
import { isDisplayed, whenDisplayed } from "./displayed.ts";
import { go } from "./router.ts";

export interface NavigationRequest {
  payload?: Record<string, unknown>;
  orgScope?: string;
  /** Open in a new browser tab instead of the content area. */
  target?: "content" | "new-tab";
}

/**
 * The app's one way to open a screen, for the menu and the assistant alike.
 * It returns what really happened, and never hides a failure behind an alert:
 * the caller decides what to show.
 */
export function createNavigator(options: { user: User; screens: () => Screen[]; displayTimeoutMs?: number }) {
  return async function navigate(screenId: string, request: NavigationRequest = {}): Promise<NavigationOutcome> {
    const screen = options.screens().find((candidate) => candidate.id === screenId);
    // Not in this user's screen tree: no permission, or no such screen; they look the same.
    if (!screen?.route) return { status: "failed", stage: "requested", reason: "access_denied", message: `${screenId} is not among the screens you can open.` };
    if (request.orgScope && request.orgScope !== options.user.orgScope) {
      return {
        status: "blocked",
        stage: "requested",
        reason: "org_scope_mismatch",
        message: `Requested for ${request.orgScope}, but you are signed in to ${options.user.orgScope}.`,
      };
    }
    const route = fillRoute(screen.route, request.payload);
    if (!route)
      return { status: "failed", stage: "requested", reason: "not_found", message: `${screen.name} needs a record to show.`, data: { path: screen.path } };
    const data = { route, path: screen.path };
    if (request.target === "new-tab") {
      return openInNewTab(route)
        ? { status: "succeeded", stage: "requested", data }
        : { status: "blocked", stage: "requested", reason: "popup_blocked", message: "The browser blocked the new tab.", data };
    }
    if (isDisplayed(route)) return { status: "succeeded", stage: "displayed", data };
    const shown = whenDisplayed(route, options.displayTimeoutMs ?? 8000);
    go(route);
    return (await shown)
      ? { status: "succeeded", stage: "displayed", data }
      : { status: "succeeded", stage: "switched", reason: "timeout", message: `${screen.name} opened, but its data did not finish loading.`, data };
  };
}

export type Navigate = ReturnType<typeof createNavigator>;

/**
 * Opens `route` in a new tab that cannot reach back into this one, and says
 * whether a tab really opened. Not `window.open(url, "_blank", "noopener")`:
 * with noopener every browser returns null, opened or not, so a blocked popup
 * and an open tab look the same. Instead the tab opens empty, with its handle,
 * is cut off from this window (what noopener does), and only then goes to
 * the route, so no page of the route ever sees `window.opener`.
 */
function openInNewTab(route: string): boolean {
  // Null when a popup blocker refused; some blockers hand back a window they already closed.
  const opened = window.open("about:blank", "_blank");
  if (!opened || opened.closed) return false;
  opened.opener = null;
  opened.location.href = new URL(route, window.location.href).href;
  return true;
}

function fillRoute(route: string, payload: Record<string, unknown> = {}): string | undefined {
  let missing = false;
  const filled = route.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = payload[name];
    if (typeof value !== "string" || !value) missing = true;
    return encodeURIComponent(String(value));
  });
  return missing ? undefined : filled;
}
