import { afterEach, describe, expect, it, vi } from "vitest";
import { stopOnSignals } from "./stop-on-signals.ts";

function harness() {
  const steps: string[] = [];
  let clock = 0;
  const signal = stopOnSignals(
    { graceful: () => steps.push("graceful"), hurry: () => steps.push("hurry"), exit: () => steps.push("exit") },
    { sameSignalMs: 1000, now: () => clock },
  );
  return { steps, signal, after: (ms: number) => (clock += ms) };
}

describe("stopOnSignals", () => {
  it("stops gracefully on the first signal, and takes the same Ctrl-C passed on by npm for the one it is", () => {
    const { steps, signal, after } = harness();
    signal();
    after(5);
    signal();
    expect(steps).toEqual(["graceful"]);
  });

  it("hurries on a later signal and exits on the one after, each repeat within a second ignored", () => {
    const { steps, signal, after } = harness();
    signal();
    after(2000);
    signal();
    after(10);
    signal(); // npm passing the second Ctrl-C on: not a third
    expect(steps).toEqual(["graceful", "hurry"]);
    after(1500);
    signal();
    after(5000);
    signal();
    expect(steps).toEqual(["graceful", "hurry", "exit"]);
  });

  it("keeps its own time, not the wall clock's: a clock set back or forward between signals changes nothing", () => {
    let wall = 1_800_000_000_000;
    let real = 1_000;
    vi.spyOn(Date, "now").mockImplementation(() => wall);
    vi.spyOn(performance, "now").mockImplementation(() => real);
    const steps: string[] = [];
    const signal = stopOnSignals({ graceful: () => steps.push("graceful"), hurry: () => steps.push("hurry"), exit: () => steps.push("exit") });
    signal();
    wall += 2_000; // set forward while npm passes the same Ctrl-C on
    real += 1;
    signal();
    expect(steps).toEqual(["graceful"]);
    wall -= 3_600_000; // set back an hour
    real += 5_000;
    signal();
    real += 5_000;
    signal();
    expect(steps).toEqual(["graceful", "hurry", "exit"]);
  });
});

afterEach(() => vi.restoreAllMocks());
