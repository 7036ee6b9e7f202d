import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: source("."),
  // Served under /runs/ beside the Workdesk at / and the Recipes at /recipes/, on the same origin (and sign-in cookie).
  base: "/runs/",
  resolve: {
    alias: {
      "@tether-agent/tether/protocol": source("../../../src/protocol/index.ts"),
    },
  },
  // React without a plugin: esbuild compiles JSX with the automatic runtime.
  esbuild: { jsx: "automatic" },
  build: {
    outDir: source("./dist"),
    emptyOutDir: true,
    sourcemap: true,
    reportCompressedSize: false,
    rollupOptions: {
      // zod's sources carry comments Rollup reads as misplaced annotations; harmless, and not ours to fix.
      onwarn(warning, warn) {
        if (warning.code !== "INVALID_ANNOTATION") warn(warning);
      },
    },
  },
  logLevel: "warn",
});
