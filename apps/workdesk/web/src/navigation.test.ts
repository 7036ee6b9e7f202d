import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Screen, User } from "./api.ts";

/** A window with just what the navigation function touches: history, location, window.open. */
function fakeWindow(open: (url: string) => unknown) {
  const location = { pathname: "/dashboard" };
  const listeners = new Set<() => void>();
  vi.stubGlobal("location", location);
  vi.stubGlobal("history", {
    pushState: (_state: unknown, _title: string, path: string) => (location.pathname = path),
    replaceState: (_state: unknown, _title: string, path: string) => (location.pathname = path),
  });
  vi.stubGlobal("window", { addEventListener: (_type: string, listener: () => void) => listeners.add(listener), open });
  return location;
}

const kim: User = { userId: "kim", orgScope: "ORG-01", roles: ["requester"] };
const screens: Screen[] = [
  { id: "MNU-3120", name: "Work request list", description: "", route: "/work-requests", path: "Work management › Work request list" },
  { id: "MNU-3130", name: "Work request detail", description: "", route: "/work-requests/:requestId", path: "Work management › Work request list › Work request detail" },
];

describe("the Workdesk navigation function", () => {
  let open: ReturnType<typeof vi.fn>;
  let location: { pathname: string };
  beforeEach(() => {
    vi.resetModules();
    open = vi.fn(() => ({}));
    location = fakeWindow(open);
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

  it("checks what window.open returned: a blocked popup is blocked, not succeeded", async () => {
    open.mockReturnValue(null);
    const { navigate } = await load();
    expect(await navigate("MNU-3120", { target: "new-tab" })).toMatchObject({ status: "blocked", reason: "popup_blocked" });
    open.mockReturnValue({});
    expect(await navigate("MNU-3120", { target: "new-tab" })).toMatchObject({ status: "succeeded", stage: "requested" });
    expect(open).toHaveBeenCalledWith("/work-requests", "_blank", "noopener");
  });
});

