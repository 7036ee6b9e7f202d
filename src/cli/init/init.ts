import { readFileSync } from "node:fs";
import { constants } from "node:os";
import { basename, relative, resolve } from "node:path";
import { TetherError } from "../../protocol/index.ts";
import { appPackageJson } from "./app-package.ts";
import { checkPackageName } from "./package-name.ts";
import { readTetherPackage } from "./tether-package.ts";
import { templateFiles } from "./template.ts";
import { tetherSpec, type TetherSpec } from "./tether-spec.ts";
import type { CommandOptions } from "../parse-flags.ts";
import { writeApp } from "./write-app.ts";

export const INIT_USAGE = `  tether init <folder> [--tether <version | path of a .tgz | URL>]
      Writes a small app into a new (or empty) folder: a Tether server on SQLite
      with one server tool and one browser tool, on an offline scripted model
      until OPENAI_API_KEY is set, and a Vite + React page with the assistant's
      panel. Then: cd <folder> && npm install && npm run dev. --tether sets the
      app's @tether-agent/tether dependency: a version from the npm registry
      (default: this Tether's version as a ^ range), the path of the tarball npm
      pack made (or of a Tether checkout), or a URL or git spec npm installs.
      Exits 1 and writes nothing when the folder is not empty (.git and editor
      folders aside), its name cannot name an npm package, the --tether path is
      not a tarball or Tether, or the folder cannot be written.
`;

/** The options `tether init` takes (main refuses any other). */
export const INIT_OPTIONS: CommandOptions = { values: ["tether"] };

export interface CreatedApp {
  /** The app's folder, absolute. */
  folder: string;
  /** The `@tether-agent/tether` dependency written in its package.json, and where npm fetches it. */
  tether: TetherSpec;
}

/**
 * Writes the starter app into `folder` (relative to `cwd`): the template's files and a package.json.
 * When `signal` aborts, the write stops and what was written is taken back.
 */
export async function createStarterApp(folder: string, options: { tether?: string; cwd?: string; signal?: AbortSignal } = {}): Promise<CreatedApp> {
  const cwd = options.cwd ?? process.cwd();
  const target = resolve(cwd, folder);
  const name = basename(target);
  checkPackageName(name);
  const tether = tetherSpec(options.tether, target, readTetherPackage().version, cwd);
  await writeApp(
    target,
    [
      ...templateFiles().map((file) => ({ path: file.target, content: readFileSync(file.source) })),
      { path: "package.json", content: appPackageJson(name, tether.spec) },
    ],
    options.signal,
  );
  return { folder: target, tether };
}

/**
 * `tether init <folder> [--tether <spec>]`: writes the app and says what to do next. Ctrl-C (or
 * SIGTERM) while it writes takes back what was written, and exits 128 + the signal's number.
 */
export async function initCommand(positional: string[], flags: Record<string, string>): Promise<number> {
  const [folder, ...extra] = positional;
  if (!folder) throw new TetherError("config_invalid", `Name the folder to write the app into: tether init my-app.\n\n${INIT_USAGE}`);
  if (extra.length > 0) throw new TetherError("config_invalid", `tether init takes one folder, not ${positional.length} (${positional.join(" ")}).`);
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => stop.abort(signal);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  let app: CreatedApp;
  try {
    app = await createStarterApp(folder, { ...(flags.tether === undefined ? {} : { tether: flags.tether }), signal: stop.signal });
  } catch (error) {
    if (!stop.signal.aborted) throw error;
    const signal = stop.signal.reason as NodeJS.Signals;
    process.stderr.write(`tether init: stopped (${signal}), and took back what it had written.\n`);
    return 128 + constants.signals[signal];
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  process.stdout.write(nextSteps(app));
  return 0;
}

/** What init wrote, and what to run next. */
function nextSteps(app: CreatedApp): string {
  const where = relative(process.cwd(), app.folder) || ".";
  const note = {
    registry: " from the npm registry (until Tether is published there, give init --tether <the .tgz from npm pack>)",
    file: "",
    elsewhere: ", which npm fetches from there",
  }[app.tether.from];
  return [
    `Wrote a Tether app in ${where}: server.ts, the page in src/, and a README saying how to add a tool, a provider and an approval.`,
    `Its @tether-agent/tether is ${app.tether.spec}${note}.`,
    "",
    "Next:",
    ...(where === "." ? [] : [`  cd ${shellWord(where)}`]),
    "  npm install",
    "  npm run dev      # then open http://127.0.0.1:5173",
    "",
  ].join("\n");
}

/** A path as a shell takes it. */
function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
