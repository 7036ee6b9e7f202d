import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { toAgUiTool } from "../../../src/protocol/index.ts";
import { workdeskBrowserTools } from "./src/browser-tools.ts";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Writes the tools this frontend declares, so `tether tools check` can compare them with a server. */
function toolManifest(): Plugin {
  return {
    name: "tether-tool-manifest",
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: "tools.manifest.json",
        source: `${JSON.stringify(
          workdeskBrowserTools.map((spec) => toAgUiTool(spec)),
          null,
          2,
        )}\n`,
      });
    },
  };
}

export default defineConfig({
  root: source("."),
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
    // The entry (React and the sign-in, 230 kB) and the signed-in shell, fetched side by side: the assistant with
    // the AG-UI reference client, zod, protobuf, ajv and streamdown's markdown parsers, 1,090 kB (320 kB gzipped;
    // Rollup names it after streamdown's mermaid entry, which re-exports from it). A2UI's renderer when a surface comes.
    chunkSizeWarningLimit: 1200,
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
