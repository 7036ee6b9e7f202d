import { afterEach, describe, expect, it, vi } from "vitest";
import { startLeaseSweeper } from "./lease-sweeper.ts";

describe("startLeaseSweeper", () => {
  afterEach(() => void vi.useRealTimers());

  it("sweeps every interval, reports what it ended and each outage once, and stops", async () => {
    vi.useFakeTimers();
    const results: Array<number | Error> = [0, 2, new Error("database away"), new Error("still away"), 0, new Error("away again")];
    const sweep = vi.fn(async () => {
      const next = results.shift() ?? 0;
      if (next instanceof Error) throw next;
      return next;
    });
    const ended: number[] = [];
    const errors: unknown[] = [];
    const sweeper = startLeaseSweeper({ sweep, intervalMs: 1000, onEnded: (count) => ended.push(count), onError: (error) => errors.push(error) });

    await vi.advanceTimersByTimeAsync(999);
    expect(sweep).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(5001);
    expect(sweep).toHaveBeenCalledTimes(6);
    expect(ended).toEqual([2]);
    expect(errors).toEqual([new Error("database away"), new Error("away again")]);

    await sweeper.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sweep).toHaveBeenCalledTimes(6);
  });

  it("never starts a sweep while the last one is still going, and stop waits for it", async () => {
    vi.useFakeTimers();
    let finish!: () => void;
    const sweep = vi.fn(() => new Promise<number>((resolve) => (finish = () => resolve(0))));
    const sweeper = startLeaseSweeper({ sweep, intervalMs: 100 });

    await vi.advanceTimersByTimeAsync(1000);
    expect(sweep).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = sweeper.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(sweep).toHaveBeenCalledTimes(1);
  });
});
