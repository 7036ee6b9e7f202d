import type { TestSpecification, Vitest } from "vitest/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import TestPlan from "./test-plan.ts";

afterEach(() => vi.unstubAllEnvs());

/** What the reporter prints before a run of these projects' files. */
async function plan(...projects: string[]): Promise<string> {
  const printed: string[] = [];
  const reporter = new TestPlan();
  reporter.onInit({ logger: { log: (text: string) => printed.push(text) } } as unknown as Vitest);
  await reporter.onTestRunStart(projects.map((name) => ({ project: { name } }) as TestSpecification));
  return printed.join("\n");
}

describe("the test plan printed before a run", () => {
  it("gives the whole suite's time, and which servers answer and what skips without the others", async () => {
    // Port 1: nothing listens there, so both are refused at once.
    vi.stubEnv("TETHER_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:1/test");
    vi.stubEnv("TETHER_TEST_REDIS_URL", "redis://127.0.0.1:1");
    vi.stubEnv("TETHER_TEST_REQUIRE_POSTGRES", "");
    vi.stubEnv("TETHER_TEST_REQUIRE_REDIS", "");
    vi.stubEnv("TETHER_TEST_REQUIRE_NGINX", "");
    const printed = await plan("unit", "integration", "services");
    expect(printed).toMatch(/^About 8 minutes on 2 cores \(unit 1\.5, integration 4\.5, services 2\)/);
    expect(printed).toMatch(/optional here, required in CI/);
    expect(printed).toMatch(/PostgreSQL at 127\.0\.0\.1:1\/test did not answer \(ECONNREFUSED\): test\/postgres, .* skip\n/);
    expect(printed).toMatch(/Redis at 127\.0\.0\.1:1 did not answer .*: test\/redis, .* skip\n/);
    expect(printed).toMatch(/nginx/);
  });

  it("says only what the services need when the run is not the whole suite, and nothing for a run without them", async () => {
    expect(await plan("services")).not.toMatch(/minutes/);
    expect(await plan("unit", "integration")).toBe("");
  });
});
