import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Tests that need PostgreSQL, Redis or nginx: each skips without its server,
 * unless TETHER_TEST_REQUIRE_POSTGRES, _REDIS or _NGINX says it must be there (CI).
 * The store's and the hub's contracts run their memory and SQLite cases here too.
 */
const SERVICE_TESTS = [
  "test/{postgres,redis,nginx}/**/*.test.ts",
  "src/server/adapters/{pg,redis}/**/*.test.ts",
  "src/server/**/*contract.test.ts",
  "apps/**/pg-*.test.ts",
];

/** One project of `npm test`; projects run one after another (`groupOrder`), so each one's time is its own. */
function project(name: string, groupOrder: number, files: { include: string[]; exclude: string[] }): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: { name, include: files.include, exclude: ["node_modules/**", ...files.exclude], sequence: { groupOrder } },
  };
}

export default defineConfig({
  resolve: {
    // The package imports itself by name (apps use `@tether-agent/tether/server`), as its users do.
    alias: {
      "@tether-agent/tether/protocol": source("./src/protocol/index.ts"),
      "@tether-agent/tether/server": source("./src/server/index.ts"),
      "@tether-agent/tether/store": source("./src/server/store/index.ts"),
      "@tether-agent/tether/genui": source("./src/server/genui/index.ts"),
      "@tether-agent/tether/sqlite": source("./src/server/adapters/sqlite/index.ts"),
      "@tether-agent/tether/pg": source("./src/server/adapters/pg/index.ts"),
      "@tether-agent/tether/redis": source("./src/server/adapters/redis/index.ts"),
      "@tether-agent/tether/node": source("./src/server/adapters/node/index.ts"),
      "@tether-agent/tether/adk": source("./src/server/adapters/adk/index.ts"),
      "@tether-agent/tether/fetch": source("./src/server/adapters/fetch/index.ts"),
      "@tether-agent/tether/client": source("./src/client/index.ts"),
      "@tether-agent/tether/react": source("./src/react/index.ts"),
      "@tether-agent/tether/testing": source("./src/testing/index.ts"),
      "@tether-agent/tether/internal": source("./src/internal.ts"),
    },
  },
  test: {
    testTimeout: 20_000,
    pool: "forks",
    setupFiles: ["./test/setup/lit-dev-mode.ts"],
    // The default report, with what the run takes and needs before it and each project's time after it
    // (`npm test` runs all three; the browser suite is vitest.e2e.config.ts).
    reporters: ["default", "./test/reporters/test-plan.ts", "./test/reporters/project-times.ts"],
    projects: [
      project("unit", 0, { include: ["src/**/*.test.ts", "apps/**/*.test.ts"], exclude: SERVICE_TESTS }),
      project("integration", 1, { include: ["test/**/*.test.ts"], exclude: ["test/e2e/**", ...SERVICE_TESTS] }),
      project("services", 2, { include: SERVICE_TESTS, exclude: [] }),
    ],
  },
});
