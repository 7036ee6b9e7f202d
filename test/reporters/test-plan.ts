import type { Reporter, TestSpecification, Vitest } from "vitest/node";

/**
 * Each project's time in minutes on a two-core machine, rounded from what project-times.ts printed for two whole
 * runs (unit 96 and 115 s, integration 275 and 288 s, services 109 and 148 s) while other work loaded the machine
 * (load average 3.5 to 4.7): a quiet machine is quicker.
 */
const MINUTES: Record<string, number> = { unit: 1.5, integration: 4.5, services: 2 };

/**
 * The servers the services project uses: whether each answers, as the test files ask (each asks again for
 * itself), how to say it does, and what skips when it does not.
 */
const SERVICES: Array<{ check(): Promise<{ url: string } | { skipped: string }>; found(url: string): string; skips: string }> = [
  {
    check: async () => (await import("../helpers/postgres.ts")).reachablePostgres(),
    found: (url) => `PostgreSQL at ${where(url)} answered`,
    skips: "test/postgres, test/redis, test/nginx, the pg adapter's tests and the store contract's server cases skip",
  },
  {
    check: async () => (await import("../helpers/redis.ts")).reachableRedis(),
    found: (url) => `Redis at ${where(url)} answered`,
    skips: "test/redis, test/nginx and the hub contract's Redis cases skip",
  },
  {
    async check() {
      const missing = (await import("../helpers/nginx.ts")).nginxMissing();
      return missing ? { skipped: missing } : { url: "/usr/sbin/nginx" };
    },
    found: (path) => `nginx at ${path} is installed`,
    skips: "test/nginx skips",
  },
];

/**
 * Before the first test: how long the run takes when it is the whole suite,
 * and, when it includes the services project, which of its servers answer
 * and what skips without the others. A few lines, so that nobody waits
 * without knowing for how long, or reads a green run as one that ran all.
 */
export default class TestPlan implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest) {
    this.vitest = vitest;
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>) {
    const projects = new Set(specifications.map((specification) => specification.project.name));
    const lines: string[] = [];
    if (Object.keys(MINUTES).every((name) => projects.has(name))) {
      const each = Object.entries(MINUTES).map(([name, minutes]) => `${name} ${minutes}`);
      const total = Object.values(MINUTES).reduce((sum, minutes) => sum + minutes, 0);
      lines.push(`About ${total} minutes on 2 cores (${each.join(", ")}); each project's time is printed at the end.`);
    }
    if (projects.has("services")) {
      lines.push("Servers for the services project: optional here, required in CI (TETHER_TEST_REQUIRE_POSTGRES, _REDIS, _NGINX=1);");
      lines.push("TETHER_TEST_DATABASE_URL and TETHER_TEST_REDIS_URL point the tests at others.");
      lines.push(...(await Promise.all(SERVICES.map(async (service) => `  ${await state(service)}`))));
    }
    if (lines.length > 0) this.vitest?.logger.log([...lines, ""].join("\n"));
  }
}

/** Where it answered; or why not and what skips; or, when CI requires it (TETHER_TEST_REQUIRE_*), that its tests fail. */
async function state(service: (typeof SERVICES)[number]): Promise<string> {
  try {
    const answer = await service.check();
    // The helpers' advice on starting a server (after the semicolon) is for the line a skipped file prints.
    return "url" in answer ? service.found(answer.url) : `${answer.skipped.replace(/; .*$/, "")}: ${service.skips}`;
  } catch (error) {
    return `${error instanceof Error ? error.message : String(error)} Its tests fail.`;
  }
}

/** A server's address without its credentials, or a path as it is. */
function where(url: string): string {
  if (url.startsWith("/")) return url;
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
}
