import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { toAgUiTool } from "../../../src/protocol/index.ts";
import { everyRecipeTool } from "./src/every-recipe-tool.ts";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Writes every tool this frontend may hand over, so `tether tools check` can compare them with a server. */
function toolManifest(): Plugin {
  return {
    name: "tether-tool-manifest",
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: "tools.manifest.json",
        source: `${JSON.stringify(
          everyRecipeTool().map((spec) => toAgUiTool(spec)),
          null,
          2,
        )}\n`,
      });
    },
  };
}

export default defineConfig({
  root: source("."),
  // Served under /recipes/ beside the Workdesk at /.
  base: "/recipes/",
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
    // One bundle of 1,384 kB (394 kB gzipped): React, the AG-UI reference client (zod, rxjs, protobuf), ajv and
    // streamdown's markdown parsers; A2UI's renderer when a surface comes.
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
  plugins: [toolManifest()],
  logLevel: "warn",
});
