/**
 * The dependencies of the app `tether init` writes: the one place their ranges are listed. Each
 * range installs working versions on Node 20.19 and on later Node; where a newer major needs Node 22,
 * the range stops before it or npm picks by `engines` (said per line). Tether's peers take
 * Tether's own peer ranges (app-package.test.ts holds them to it), and test/e2e/starter.test.ts
 * installs the lot as the registry has them on the day.
 */
export const STARTER_DEPENDENCIES: Record<string, string> = {
  "@a2ui/markdown-it": "^0.1.2",
  "@a2ui/react": "^0.11.1",
  "@ai-sdk/openai": "^3.0.0 || ^4.0.0", // 4 (AI SDK 7) declares Node 22: on Node 20 npm picks 3
  "@hono/node-server": "^1.19.19 || ^2.1.11",
  "better-sqlite3": "^12.11.1", // 13 needs Node 22
  hono: "^4.13.19", // Tether's peer: its API and the app's routes share one Hono
  react: "^19.0.0",
  "react-dom": "^19.0.0",
  streamdown: "^2.7.1",
  tsx: "^4.20.0", // runs server.ts, in development and with npm start
  zod: "^4.0.0",
};

export const STARTER_DEV_DEPENDENCIES: Record<string, string> = {
  "@types/node": "^20.19.0",
  "@types/react": "^19.0.0",
  "@types/react-dom": "^19.0.0",
  "@vitejs/plugin-react": "^5.0.0",
  concurrently: "^9.0.0", // the server and the page's dev server in one terminal; 10 needs Node 22
  typescript: "^5.6.0",
  vite: "^7.0.0",
};

/** The app's package.json, named after its folder, with `@tether-agent/tether` at `tetherSpec`. */
export function appPackageJson(name: string, tetherSpec: string): string {
  const manifest = {
    name,
    private: true,
    type: "module",
    engines: { node: ">=20.19.0" },
    scripts: {
      dev: 'concurrently --kill-others --names server,page "tsx watch --clear-screen=false server.ts" "vite"',
      build: "tsc --noEmit && vite build",
      start: "tsx server.ts --serve-page", // the built page beside the API; npm run dev leaves it to Vite
      typecheck: "tsc --noEmit",
    },
    // npm 11 runs a dependency's install scripts only when allowed: SQLite's binary, Vite's esbuild.
    allowScripts: { "better-sqlite3": true, esbuild: true },
    dependencies: sorted({ ...STARTER_DEPENDENCIES, "@tether-agent/tether": tetherSpec }),
    devDependencies: STARTER_DEV_DEPENDENCIES,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** In npm's order, as `npm install` would write them. */
function sorted(dependencies: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b, "en")));
}
