import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/** The browser suite: Debian's Chromium driven by playwright-core against the built demo. */
export default defineConfig({
  resolve: base.resolve,
  test: {
    name: "browser",
    include: ["test/e2e/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One browser at a time: the machine has two cores and the story tests watch timing.
    fileParallelism: false,
  },
});
