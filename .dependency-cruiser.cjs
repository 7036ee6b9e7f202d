/**
 * The layer order, enforced: apps → react → client → protocol, apps → server → protocol.
 * `npm test` runs it (npm run lint); a forbidden import or a cycle fails the build.
 */
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
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "default"], extensions: [".ts", ".tsx", ".js"] },
  },
};
