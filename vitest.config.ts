import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // The package imports itself by name (apps use `@tether-agent/tether/server`), as its users do.
    alias: {
      "@tether-agent/tether/protocol": source("./src/protocol/index.ts"),
      "@tether-agent/tether/server": source("./src/server/index.ts"),
      "@tether-agent/tether/genui": source("./src/server/genui/index.ts"),
      "@tether-agent/tether/client": source("./src/client/index.ts"),
      "@tether-agent/tether/react": source("./src/react/index.ts"),
      "@tether-agent/tether/testing": source("./src/testing/index.ts"),
    },
  },
  test: {
    include: ["src/**/*.test.ts", "apps/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["test/e2e/**", "node_modules/**"],
    testTimeout: 20_000,
    pool: "forks",
  },
});
