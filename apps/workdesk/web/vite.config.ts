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
    // The entry (React and the sign-in, 230 kB) and the signed-in shell (the assistant with the AG-UI
    // reference client, zod, protobuf and ajv: 535 kB), fetched side by side; A2UI's renderer when a surface comes.
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      // zod's sources carry comments Rollup reads as misplaced annotations; harmless, and not ours to fix.
      onwarn(warning, warn) {
        if (warning.code !== "INVALID_ANNOTATION") warn(warning);
      },
    },
  },
  plugins: [toolManifest()],
  logLevel: "warn",
});
