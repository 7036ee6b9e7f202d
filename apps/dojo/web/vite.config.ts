import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: source("."),
  // Served under /dojo/ beside the Workdesk at / and the Recipes at /recipes/, on the same origin (and sign-in cookie).
  base: "/dojo/",
  resolve: {
    alias: {
      "@tether-agent/tether/protocol": source("../../../src/protocol/index.ts"),
      "@tether-agent/tether/client": source("../../../src/client/index.ts"),
      "@tether-agent/tether/react": source("../../../src/react/index.ts"),
      "@tether-agent/tether/styles.css": source("../../../src/react/styles.css"),
    },
  },
  // React without a plugin: esbuild compiles JSX with the automatic runtime.
  esbuild: { jsx: "automatic" },
  build: {
    outDir: source("./dist"),
    emptyOutDir: true,
    sourcemap: true,
    reportCompressedSize: false,
    // One bundle, as the Recipes' (React, the AG-UI reference client, ajv, streamdown's markdown parsers).
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      // Harmless, and not ours to fix: zod's sources carry comments Rollup reads as misplaced annotations, and
      // streamdown marks its modules "use client" for React Server Components, which a browser bundle has none of.
      onwarn(warning, warn) {
        if (warning.code === "INVALID_ANNOTATION") return;
        if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes('"use client"')) return;
        warn(warning);
      },
    },
  },
  logLevel: "warn",
});
