import { afterEach, describe, expect, it, vi } from "vitest";
import { acrossLine, readResult } from "../bench/pipeline/across-processes.ts";

// The pipeline's target is judged on the median across processes: a misread ratio would judge another figure.
describe("the pipeline benchmark across processes", () => {
  it("reads the ratios a process printed among its other lines", () => {
    const output = 'tether / bare    0.441×   target ≥ 0.50×   MISSED\nPIPELINE_RESULT {"bare":0.441,"minimal":2.9}\ntotal 41.0 s\n';
    expect(readResult(output)).toEqual({ bare: 0.441, minimal: 2.9 });
  });

  it.each([
    ["no result line", "tether / bare 0.44×\n"],
    ["a ratio that is not a number", 'PIPELINE_RESULT {"bare":null,"minimal":2.9}'],
  ])("refuses output with %s", (_what, output) => {
    expect(() => readResult(output)).toThrow(/PIPELINE_RESULT/);
  });

  it("judges the target on the median, with the spread beside it", () => {
    expect(acrossLine("tether / bare", [0.52, 0.43, 0.45, 0.44, 0.5], 0.5)).toMatch(/median 0\.450× \(0\.430–0\.520\) over 5 processes .* MISSED$/);
    expect(acrossLine("tether / bare", [0.52, 0.51, 0.45], 0.5)).toMatch(/median 0\.510× .* MET$/);
  });

  it("reads its settings when it runs, not when its helpers are imported", async () => {
    const saved = process.env.BENCH_PROCESSES;
    process.env.BENCH_PROCESSES = "not a number";
    vi.resetModules();
    try {
      expect(typeof (await import("../bench/pipeline/across-processes.ts")).readResult).toBe("function");
    } finally {
      if (saved === undefined) delete process.env.BENCH_PROCESSES;
      else process.env.BENCH_PROCESSES = saved;
    }
  });

  it("says process, not processes, of one", () => {
    expect(acrossLine("tether / bare", [0.5], 0.5)).toMatch(/over 1 process .* MET$/);
  });
});

afterEach(() => vi.resetModules());
