import { createMemoryStorage } from "@tether-agent/tether/testing";
import { describe, expect, it } from "vitest";
import { createKitchenTimers } from "./kitchen-timers.ts";

describe("kitchen timers", () => {
  it("starts a countdown that ends after its seconds, and tells who listens", () => {
    const timers = createKitchenTimers(createMemoryStorage(), () => 1_000);
    let heard = 0;
    timers.subscribe(() => heard++);
    expect(timers.start({ id: "call_1", label: "Step 3", seconds: 180 })).toEqual({ id: "call_1", label: "Step 3", seconds: 180, endsAt: 181_000 });
    expect(heard).toBe(1);
  });

  it("keeps the countdown it has when the same call starts it again (a reload that runs the call again)", () => {
    let now = 1_000;
    const timers = createKitchenTimers(createMemoryStorage(), () => now);
    timers.start({ id: "call_1", label: "Step 3", seconds: 180 });
    now = 60_000;
    expect(timers.start({ id: "call_1", label: "Step 3", seconds: 180 }).endsAt).toBe(181_000);
    expect(timers.list()).toHaveLength(1);
  });

  it("survives a reload of the page (its storage), and forgets a removed one", () => {
    const storage = createMemoryStorage();
    createKitchenTimers(storage, () => 0).start({ id: "call_1", label: "Eggs", seconds: 60 });
    const reloaded = createKitchenTimers(storage, () => 0);
    expect(reloaded.list().map((timer) => timer.label)).toEqual(["Eggs"]);
    reloaded.remove("call_1");
    expect(createKitchenTimers(storage).list()).toEqual([]);
  });
});
