/**
 * The layer order, enforced: apps → react → client → protocol, apps → server → protocol.
 * Inside the server, ports in the core and adapters at the edge: adapters import the core,
 * the core reaches an adapter only by loading it (src/server/load-adapter.ts), through its entry file.
 * Each of the server's folders is entered through its entry file (index.ts, or a subfolder's), dynamic import() included.
 * `npm test` runs it (npm run lint); a forbidden import or a cycle fails the build.
 */
/** Entry files of the server's folders: a folder's index.ts, or a subfolder's (http/routes, genui/surfaces, store/shared ...). */
const SERVER_ENTRIES = ["^src/server/[^/]+/index\\.ts$", "^src/server/[^/]+/[^/]+/index\\.ts$"];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: "no-cycles", severity: "error", comment: "Modules must not import each other in a circle.", from: {}, to: { circular: true } },
    {
      name: "protocol-imports-nothing-of-ours",
      severity: "error",
      comment: "protocol is the shared vocabulary: it depends on no other layer.",
      from: { path: "^src/protocol" },
      to: { path: "^(src/(server|client|react|cli|testing)|apps)/" },
    },
    {
      name: "server-never-imports-the-browser-side",
      severity: "error",
      from: { path: "^src/server" },
      to: { path: "^src/(client|react|cli)/" },
    },
    {
      name: "client-never-imports-server-or-react",
      severity: "error",
      from: { path: "^src/client" },
      to: { path: "^src/(server|react|cli)/" },
    },
    {
      name: "react-never-imports-the-server",
      severity: "error",
      from: { path: "^src/react" },
      to: { path: "^src/(server|cli)/" },
    },
    {
      name: "the-core-never-imports-an-adapter",
      severity: "error",
      comment:
        "The server's core (src/server outside adapters/) knows adapters only through their ports; createTetherApp loads the one it picks in src/server/load-adapter.ts, so a process needs only that one's driver.",
      from: { path: "^src/server/", pathNot: "^src/server/(adapters/|load-adapter\\.ts$)" },
      to: { path: "^src/server/adapters/" },
    },
    {
      name: "the-adapter-loader-only-loads",
      severity: "error",
      comment: "The loader reaches an adapter by a dynamic import() of its entry file only: a static import would load every driver with the core.",
      from: { path: "^src/server/load-adapter\\.ts$" },
      to: { path: "^src/server/adapters/", dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "an-adapter-is-entered-by-its-index",
      severity: "error",
      comment: "From outside an adapter's folder (another adapter, the cli, an app), only its entry file index.ts: the rest is its own.",
      from: { path: "^(src|apps)/", pathNot: "^src/(server/adapters/|internal\\.ts$)" },
      to: { path: "^src/server/adapters/[^/]+/", pathNot: "^src/server/adapters/[^/]+/index\\.ts$" },
    },
    {
      name: "adapters-enter-each-other-by-index",
      severity: "error",
      from: { path: "^src/server/adapters/([^/]+)/" },
      to: { path: "^src/server/adapters/[^/]+/", pathNot: "^src/server/adapters/($1/|[^/]+/index\\.ts$)" },
    },
    {
      name: "a-folder-is-entered-by-its-index",
      severity: "error",
      comment:
        "From another of the server's folders (an adapter included), a folder's module is reached through its entry file: its index.ts, or a subfolder's (http/routes, genui/surfaces, store/shared ...). Inside a folder, modules import each other directly.",
      from: { path: "^src/server/([^/]+)/" },
      // Every folder, a new one too; adapters/ has rules of its own above.
      to: { path: "^src/server/[^/]+/", pathNot: ["^src/server/$1/", "^src/server/adapters/", ...SERVER_ENTRIES] },
    },
    {
      name: "a-folder-is-entered-by-its-index-from-outside",
      severity: "error",
      comment: "The server's own files (app.ts, index.ts, ...), the cli, src/testing and the apps reach a server folder through its entry file too.",
      from: { path: "^(src|apps)/", pathNot: "^src/server/[^/]+/" },
      to: { path: "^src/server/[^/]+/", pathNot: ["^src/server/adapters/", ...SERVER_ENTRIES] },
    },
    {
      name: "a-client-folder-is-entered-by-its-index",
      severity: "error",
      comment: "The browser SDK's folders (session, tools, transport) likewise: from another folder or from outside, through the folder's index.ts.",
      from: { path: "^src/client/([^/]+)/" },
      to: { path: "^src/client/[^/]+/", pathNot: ["^src/client/$1/", "^src/client/[^/]+/index\\.ts$"] },
    },
    {
      name: "a-client-folder-is-entered-by-its-index-from-outside",
      severity: "error",
      from: { path: "^(src|apps)/", pathNot: "^src/client/[^/]+/" },
      to: { path: "^src/client/[^/]+/", pathNot: ["^src/client/[^/]+/index\\.ts$"] },
    },
    {
      name: "the-surface-validator-stays-lazy",
      severity: "error",
      comment:
        "genui/index.ts is the /genui subpath and loads @a2ui/web_core (about a second): no other module of the library imports it, and the run's side of generated UI (genui/surfaces) reaches the validator by a dynamic import() or for types only.",
      from: { path: "^src/", pathNot: "^src/server/genui/index\\.ts$" },
      to: { path: "^src/server/genui/(index|validate-surface)\\.ts$", dependencyTypesNot: ["dynamic-import", "type-only"] },
    },
    {
      name: "nothing-imports-the-internals-entry",
      severity: "error",
      comment: "src/internal.ts is the no-semver door for Tether's own tests and benchmarks; the library and the apps never go through it.",
      from: { path: "^(src|apps)/" },
      to: { path: "^src/internal\\.ts$" },
    },
    {
      name: "the-library-never-imports-an-app",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^apps/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(\\.test(-d)?\\.tsx?$|/dist/|^test/|^bench/)" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["tether-source", "import", "default"], extensions: [".ts", ".tsx", ".js"] },
  },
};
