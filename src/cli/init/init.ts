import { readFileSync } from "node:fs";
import { basename, relative, resolve } from "node:path";
import { TetherError } from "../../protocol/index.ts";
import { appPackageJson } from "./app-package.ts";
import { checkPackageName } from "./package-name.ts";
import { readTetherPackage } from "./tether-package.ts";
import { templateFiles } from "./template.ts";
import { tetherSpec } from "./tether-spec.ts";
import type { CommandOptions } from "../parse-flags.ts";
import { writeApp } from "./write-app.ts";

export const INIT_USAGE = `  tether init <folder> [--tether <version | path of a .tgz>]
      Writes a small app into a new (or empty) folder: a Tether server on SQLite
      with one server tool and one browser tool, on an offline scripted model
      until OPENAI_API_KEY is set, and a Vite + React page with the assistant's
      panel. Then: cd <folder> && npm install && npm run dev. --tether sets the
      app's @tether-agent/tether dependency: a version from the npm registry
      (default: this Tether's version as a ^ range), or the path of the tarball
      npm pack made. Exits 1 and writes nothing when the folder is not empty,
      its name cannot name an npm package, or the tarball is not there.
`;

/** The options `tether init` takes (main refuses any other). */
export const INIT_OPTIONS: CommandOptions = { values: ["tether"] };

export interface CreatedApp {
  /** The app's folder, absolute. */
  folder: string;
  /** The `@tether-agent/tether` dependency written in its package.json. */
  tetherSpec: string;
}

/** Writes the starter app into `folder` (relative to `cwd`): the template's files and a package.json. */
export function createStarterApp(folder: string, options: { tether?: string; cwd?: string } = {}): CreatedApp {
  const cwd = options.cwd ?? process.cwd();
  const target = resolve(cwd, folder);
  const name = basename(target);
  checkPackageName(name);
  const spec = tetherSpec(options.tether, target, readTetherPackage().version, cwd);
  writeApp(target, [
    ...templateFiles().map((file) => ({ path: file.target, content: readFileSync(file.source) })),
    { path: "package.json", content: appPackageJson(name, spec) },
  ]);
  return { folder: target, tetherSpec: spec };
}

/** `tether init <folder> [--tether <spec>]`: writes the app and says what to do next. */
export function initCommand(positional: string[], flags: Record<string, string>): number {
  const [folder, ...extra] = positional;
  if (!folder) throw new TetherError("config_invalid", `Name the folder to write the app into: tether init my-app.\n\n${INIT_USAGE}`);
  if (extra.length > 0) throw new TetherError("config_invalid", `tether init takes one folder, not ${positional.length} (${positional.join(" ")}).`);
  const app = createStarterApp(folder, flags.tether === undefined ? {} : { tether: flags.tether });
  const where = relative(process.cwd(), app.folder) || ".";
  const fromRegistry = !app.tetherSpec.startsWith("file:");
  process.stdout.write(
    [
      `Wrote a Tether app in ${where}: server.ts, the page in src/, and a README saying how to add a tool, a provider and an approval.`,
      `Its @tether-agent/tether is ${app.tetherSpec}${fromRegistry ? " from the npm registry (until Tether is published there, give init --tether <the .tgz from npm pack>)" : ""}.`,
      "",
      "Next:",
      ...(where === "." ? [] : [`  cd ${shellWord(where)}`]),
      "  npm install",
      "  npm run dev      # then open http://127.0.0.1:5173",
      "",
    ].join("\n"),
  );
  return 0;
}

/** A path as a shell takes it. */
function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
