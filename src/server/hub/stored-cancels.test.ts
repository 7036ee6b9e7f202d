import { describe, expect, it } from "vitest";
import { watchStoredCancels } from "./stored-cancels.ts";

describe("watchStoredCancels", () => {
  it("stops each run asked for in the store once, and asks the store only while runs execute here", async () => {
    let requested: string[] = [];
    let busy = false;
    let looks = 0;
    const cancelled: string[] = [];
    const watcher = watchStoredCancels({
      list: async () => (looks++, requested),
      cancel: (runId) => (cancelled.push(runId), true),
      busy: () => busy,
      intervalMs: 10,
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(looks).toBe(0);
      busy = true;
      requested = ["r1"];
      await expect.poll(() => cancelled).toEqual(["r1"]);
      requested = ["r1", "r2"];
      await expect.poll(() => cancelled).toEqual(["r1", "r2"]);
      const seen = looks;
      await expect.poll(() => looks).toBeGreaterThan(seen + 2);
      expect(cancelled).toEqual(["r1", "r2"]);
    } finally {
      await watcher.stop();
    }
  });

  it("asks again a run that was not stopped at the first look", async () => {
    let stops = false;
    const asked: string[] = [];
    const watcher = watchStoredCancels({ list: async () => ["r1"], cancel: (runId) => (asked.push(runId), stops), busy: () => true, intervalMs: 10 });
    await expect.poll(() => asked.length).toBeGreaterThan(1);
    stops = true;
    const before = asked.length;
    await expect.poll(() => asked.length).toBeGreaterThan(before);
    const count = asked.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked.length).toBe(count);
    await watcher.stop();
  });

  it("goes on looking after the store failed", async () => {
    let fail = true;
    const cancelled: string[] = [];
    const watcher = watchStoredCancels({
      list: async () => {
        if (fail) throw new Error("store away");
        return ["r1"];
      },
      cancel: (runId) => (cancelled.push(runId), true),
      busy: () => true,
      intervalMs: 10,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    fail = false;
    await expect.poll(() => cancelled).toEqual(["r1"]);
    await watcher.stop();
  });
});
