import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Screen, User } from "./api.ts";

/** A tab window.open created: where it is, and whether it can reach the window that opened it. */
interface FakeTab {
  opener: unknown;
  closed: boolean;
  location: { href: string };
}

/**
 * window.open as browsers have it: with `noopener` in the features the tab
 * opens but the call returns null; with a popup blocker on it returns null
 * and nothing opens.
 */
function fakeOpen(window: () => unknown) {
  const browser = { blocked: false, closesAtOnce: false, tabs: [] as FakeTab[] };
  const open = vi.fn((url: string, _target?: string, features?: string) => {
    if (browser.blocked) return null;
    const tab: FakeTab = { opener: window(), closed: browser.closesAtOnce, location: { href: new URL(url, "http://workdesk.test/dashboard").href } };
    browser.tabs.push(tab);
    return (features ?? "").split(",").some((feature) => feature.trim() === "noopener") ? null : tab;
  });
  return { browser, open };
}

/** A window with just what the navigation function touches: history, location, window.open. */
function fakeWindow() {
  const location = { pathname: "/dashboard", href: "http://workdesk.test/dashboard" };
  const listeners = new Set<() => void>();
  vi.stubGlobal("location", location);
  vi.stubGlobal("history", {
    pushState: (_state: unknown, _title: string, path: string) => (location.pathname = path),
    replaceState: (_state: unknown, _title: string, path: string) => (location.pathname = path),
  });
  const popups = fakeOpen(() => fake);
  const fake = { addEventListener: (_type: string, listener: () => void) => listeners.add(listener), open: popups.open, location };
  vi.stubGlobal("window", fake);
  return { location, browser: popups.browser };
}

const kim: User = { id: "kim", orgScope: "ORG-01", roles: ["requester"] };
const screens: Screen[] = [
  { id: "MNU-3120", name: "Work request list", description: "", route: "/work-requests", path: "Work management › Work request list" },
  {
    id: "MNU-3130",
    name: "Work request detail",
    description: "",
    route: "/work-requests/:requestId",
    path: "Work management › Work request list › Work request detail",
  },
];

describe("the Workdesk navigation function", () => {
  let location: { pathname: string };
  let browser: ReturnType<typeof fakeWindow>["browser"];
  beforeEach(() => {
    vi.resetModules();
    ({ location, browser } = fakeWindow());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const load = async (displayTimeoutMs = 50) => {
    const { createNavigator } = await import("./navigation.ts");
    const displayed = await import("./displayed.ts");
    return { navigate: createNavigator({ user: kim, screens: () => screens, displayTimeoutMs }), displayed };
  };

  it("refuses a screen missing from the user's screen tree as access_denied, and goes nowhere", async () => {
    const { navigate } = await load();
    expect(await navigate("MNU-9000")).toMatchObject({ status: "failed", stage: "requested", reason: "access_denied" });
    expect(location.pathname).toBe("/dashboard");
  });

  it("blocks a navigation asked for another organisation", async () => {
    const { navigate } = await load();
    expect(await navigate("MNU-3120", { orgScope: "ORG-02" })).toMatchObject({ status: "blocked", reason: "org_scope_mismatch" });
    expect(location.pathname).toBe("/dashboard");
  });

  it("fails a detail screen without its record as not_found", async () => {
    const { navigate } = await load();
    expect(await navigate("MNU-3130")).toMatchObject({ status: "failed", reason: "not_found" });
  });

  it("reports displayed once the screen signals its data, with the route and path", async () => {
    const { navigate, displayed } = await load(5_000);
    const pending = navigate("MNU-3130", { payload: { requestId: "R-1042" } });
    expect(location.pathname).toBe("/work-requests/R-1042");
    await new Promise((resolve) => setTimeout(resolve, 5));
    // What a mounted screen's useDisplayed does once its data rendered.
    displayed.markDisplayed("/work-requests/R-1042");
    expect(await pending).toEqual({
      status: "succeeded",
      stage: "displayed",
      data: { route: "/work-requests/R-1042", path: "Work management › Work request list › Work request detail" },
    });
  });

  it("reports only switched, with a timeout, when the screen never signals its data", async () => {
    const { navigate } = await load(30);
    expect(await navigate("MNU-3120")).toMatchObject({ status: "succeeded", stage: "switched", reason: "timeout" });
    expect(location.pathname).toBe("/work-requests");
  });

  it("reports a new tab that opened as succeeded, on the route, with no way back to the Workdesk", async () => {
    const { navigate } = await load();
    expect(await navigate("MNU-3120", { target: "new-tab" })).toEqual({
      status: "succeeded",
      stage: "requested",
      data: { route: "/work-requests", path: "Work management › Work request list" },
    });
    expect(browser.tabs).toHaveLength(1);
    expect(browser.tabs[0]).toMatchObject({ opener: null, location: { href: "http://workdesk.test/work-requests" } });
    // The content area did not move.
    expect(location.pathname).toBe("/dashboard");
  });

  it("reports a tab the popup blocker stopped as blocked, popup_blocked, with the route to go by hand", async () => {
    browser.blocked = true;
    const { navigate } = await load();
    expect(await navigate("MNU-3120", { target: "new-tab" })).toMatchObject({
      status: "blocked",
      stage: "requested",
      reason: "popup_blocked",
      data: { route: "/work-requests", path: "Work management › Work request list" },
    });
    expect(browser.tabs).toEqual([]);
    expect(location.pathname).toBe("/dashboard");
  });

  it("reports a tab closed as soon as it opened as blocked, not succeeded", async () => {
    browser.closesAtOnce = true;
    const { navigate } = await load();
    expect(await navigate("MNU-3120", { target: "new-tab" })).toMatchObject({ status: "blocked", reason: "popup_blocked" });
  });
});
