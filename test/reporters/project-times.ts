import type { Reporter, TestModule, Vitest } from "vitest/node";

interface Span {
  first: number;
  last: number;
}

/**
 * After the default report, each project's time and tests: from the start of
 * its first file to the end of its last, measured as they ran. The
 * projects run one after another (`sequence.groupOrder` in vitest.config.ts),
 * so the times add up to the run's.
 */
export default class ProjectTimes implements Reporter {
  private vitest: Vitest | undefined;
  private readonly spans = new Map<string, Span>();
  private readonly queued = new Map<string, number>();

  onInit(vitest: Vitest) {
    this.vitest = vitest;
    this.spans.clear();
    this.queued.clear();
  }

  onTestModuleQueued(module: TestModule) {
    this.queued.set(module.moduleId, performance.now());
  }

  onTestModuleEnd(module: TestModule) {
    const now = performance.now();
    // Queued is reported once the file's process is ready: count its start-up too.
    const { prepareDuration, environmentSetupDuration } = module.diagnostic();
    const started = (this.queued.get(module.moduleId) ?? now) - prepareDuration - environmentSetupDuration;
    const span = this.spans.get(module.project.name);
    if (!span) this.spans.set(module.project.name, { first: started, last: now });
    else {
      span.first = Math.min(span.first, started);
      span.last = Math.max(span.last, now);
    }
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    // Below the default report's summary, which it prints in this same turn.
    await new Promise((resolve) => setImmediate(resolve));
    const lines: string[] = [];
    for (const [name, span] of this.spans) {
      const own = modules.filter((module) => module.project.name === name);
      const count = { passed: 0, failed: 0, skipped: 0 };
      for (const module of own)
        for (const test of module.children.allTests()) {
          const state = test.result().state;
          if (state !== "pending") count[state]++;
        }
      const tests = `${count.passed} passed${count.failed ? `, ${count.failed} failed` : ""}${count.skipped ? `, ${count.skipped} skipped` : ""}`;
      lines.push(`  ${name.padEnd(12)} ${seconds(span.last - span.first).padStart(8)}   ${String(own.length).padStart(3)} files   ${tests}`);
    }
    if (lines.length > 0) this.vitest?.logger.log(["", " Time per project", ...lines, ""].join("\n"));
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
