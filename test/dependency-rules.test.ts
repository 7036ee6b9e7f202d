import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = join(ROOT, "node_modules/.bin/depcruise");
const run = promisify(execFile);
const made: string[] = [];

/**
 * The dependency rules of `npm run lint`, each shown to bite: a small tree
 * that breaks one rule, cruised with the project's own configuration in a
 * folder of its own (never inside src/, where other tests read the sources).
 */
async function cruise(files: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  const root = mkdtempSync(join(tmpdir(), "tether-rules-"));
  made.push(root);
  const tsconfig = { compilerOptions: { module: "ESNext", moduleResolution: "bundler", allowImportingTsExtensions: true, noEmit: true } };
  writeFileSync(join(root, "tsconfig.json"), JSON.stringify(tsconfig));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  try {
    const { stdout } = await run(
      DEPCRUISE,
      [...["src", "apps"].filter((folder) => existsSync(join(root, folder))), "--config", CONFIG, "--output-type", "err"],
      { cwd: root },
    );
    return { ok: true, output: stdout };
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: stdout + stderr };
  }
}

afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

const leaf = "export const x = 1;\n";

describe("the dependency rules", () => {
  it("pass a tree that keeps them", async () => {
    const result = await cruise({
      "src/protocol/index.ts": leaf,
      "src/server/app.ts": 'import { x } from "../protocol/index.ts";\nexport const load = () => import("./load-adapter.ts");\nexport { x };\n',
      "src/server/load-adapter.ts": 'export const pg = () => import("./adapters/pg/index.ts");\n',
      "src/server/adapters/pg/index.ts": 'export { x } from "./run-store.ts";\n',
      "src/server/adapters/pg/run-store.ts": leaf,
    });
    expect(result).toEqual({ ok: true, output: expect.any(String) });
  });

  it.each([
    ["protocol-imports-nothing-of-ours", { "src/protocol/index.ts": 'export { x } from "../server/app.ts";\n', "src/server/app.ts": leaf }],
    ["server-never-imports-the-browser-side", { "src/server/app.ts": 'export { x } from "../client/index.ts";\n', "src/client/index.ts": leaf }],
    ["client-never-imports-server-or-react", { "src/client/index.ts": 'export { x } from "../react/index.ts";\n', "src/react/index.ts": leaf }],
    [
      "the-core-never-imports-an-adapter",
      { "src/server/run/loop.ts": 'export const pg = () => import("../adapters/pg/index.ts");\n', "src/server/adapters/pg/index.ts": leaf },
    ],
    [
      "the-adapter-loader-only-loads",
      { "src/server/load-adapter.ts": 'export { x } from "./adapters/pg/index.ts";\n', "src/server/adapters/pg/index.ts": leaf },
    ],
    [
      "an-adapter-is-entered-by-its-index",
      {
        "src/cli/main.ts": 'export { x } from "../server/adapters/node/listen.ts";\n',
        "src/server/adapters/node/listen.ts": leaf,
        "src/server/adapters/node/index.ts": 'export { x } from "./listen.ts";\n',
      },
    ],
    [
      "adapters-enter-each-other-by-index",
      {
        "src/server/adapters/redis/hub.ts": 'export { x } from "../pg/run-store.ts";\n',
        "src/server/adapters/pg/run-store.ts": leaf,
        "src/server/adapters/pg/index.ts": 'export { x } from "./run-store.ts";\n',
      },
    ],
    [
      "a-folder-is-entered-by-its-index",
      {
        "src/server/run/loop.ts": 'export { x } from "../record/keep.ts";\n',
        "src/server/record/keep.ts": leaf,
        "src/server/record/index.ts": 'export { x } from "./keep.ts";\n',
      },
    ],
    [
      "a-folder-is-entered-by-its-index",
      {
        "src/server/run/loop.ts": 'export const keep = () => import("../record/keep.ts");\n',
        "src/server/record/keep.ts": leaf,
        "src/server/record/index.ts": 'export { x } from "./keep.ts";\n',
      },
    ],
    [
      "a-folder-is-entered-by-its-index",
      {
        "src/server/run/loop.ts": 'export { x } from "../upstream/agent.ts";\n', // a folder the rules never named
        "src/server/upstream/agent.ts": leaf,
        "src/server/upstream/index.ts": 'export { x } from "./agent.ts";\n',
      },
    ],
    [
      "a-folder-is-entered-by-its-index-from-outside",
      {
        "src/cli/main.ts": 'export { x } from "../server/record/keep.ts";\n',
        "src/server/record/keep.ts": leaf,
        "src/server/record/index.ts": 'export { x } from "./keep.ts";\n',
      },
    ],
    [
      "a-client-folder-is-entered-by-its-index",
      {
        "src/client/session/session.ts": 'export { x } from "../tools/tool-runner.ts";\n',
        "src/client/tools/tool-runner.ts": leaf,
        "src/client/tools/index.ts": 'export { x } from "./tool-runner.ts";\n',
      },
    ],
    [
      "a-client-folder-is-entered-by-its-index-from-outside",
      {
        "src/react/panel.tsx": 'export { x } from "../client/tools/tool-runner.ts";\n',
        "src/client/tools/tool-runner.ts": leaf,
        "src/client/tools/index.ts": 'export { x } from "./tool-runner.ts";\n',
      },
    ],
    [
      "the-surface-validator-stays-lazy",
      { "src/server/genui/surfaces/render.ts": 'export { x } from "../validate-surface.ts";\n', "src/server/genui/validate-surface.ts": leaf },
    ],
    ["nothing-imports-the-internals-entry", { "src/server/app.ts": 'export { x } from "../internal.ts";\n', "src/internal.ts": leaf }],
    [
      "nothing-imports-the-internals-entry",
      {
        // An app imports the library by its name, as its users do: the rules see through it to src/.
        "package.json": JSON.stringify({ name: "@tether-agent/tether", exports: { "./internal": { "tether-source": "./src/internal.ts" } } }),
        "apps/demo/serve.ts": 'export { x } from "@tether-agent/tether/internal";\n',
        "src/internal.ts": leaf,
      },
    ],
    ["no-cycles", { "src/server/run/a.ts": 'export { x } from "./b.ts";\n', "src/server/run/b.ts": 'import "./a.ts";\nexport const x = 1;\n' }],
  ])("refuse a tree that breaks %s", async (rule, files: Record<string, string>) => {
    const result = await cruise(files);
    expect(result.ok).toBe(false);
    expect(result.output).toContain(`error ${rule}:`); // that rule, not another whose name contains it
  });
});
