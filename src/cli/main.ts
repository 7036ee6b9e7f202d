import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { TetherError, isTetherError } from "../protocol/index.ts";
import { missingDriver } from "../server/missing-driver.ts";
import { INIT_OPTIONS, INIT_USAGE, initCommand } from "./init/init.ts";
import { parseFlags, type CommandOptions } from "./parse-flags.ts";
import { RECORD_OPTIONS, RECORD_USAGE, recordCommand } from "./record.ts";
import { TOOLS_CHECK_OPTIONS, TOOLS_CHECK_USAGE, toolsCheck } from "./tools-check.ts";

const SERVE_USAGE = `  tether serve <module> [--port 8787] [--host 127.0.0.1]
      Serves the app a module exports (default export: a Hono-style { fetch } app,
      an object with an \`app\`, or a function returning either). Exits 1 with the
      reason when the app refuses to start (for example a tool without an executor).
`;

const SERVE_OPTIONS: CommandOptions = { values: ["port", "host"] };

const HELP = `tether: the Tether command

${INIT_USAGE}
${SERVE_USAGE}
${TOOLS_CHECK_USAGE}
${RECORD_USAGE}
  tether help

Every command takes --help; options are given as --name value or --name=value.
`;

/** Runs the command line; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case "init":
        return await run("init", rest, INIT_OPTIONS, INIT_USAGE, initCommand);
      case "serve":
        return await run("serve", rest, SERVE_OPTIONS, SERVE_USAGE, serve);
      case "tools":
        return await tools(rest);
      case "record":
        return await run("record", rest, RECORD_OPTIONS, RECORD_USAGE, recordCommand);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(HELP);
        return 0;
      default:
        process.stderr.write(`Unknown command "${command}".\n\n${HELP}`);
        return 2;
    }
  } catch (error) {
    process.stderr.write(isTetherError(error) ? `tether: ${error.code}: ${error.message}\n` : `tether: ${(error as Error)?.stack ?? String(error)}\n`);
    return 1;
  }
}

/**
 * Reads a command's arguments against the options it takes, then runs it. `--help` prints its usage;
 * an option it does not take exits 2 with the reason and its usage, before anything is done.
 */
async function run(
  command: string,
  args: string[],
  options: CommandOptions,
  usage: string,
  handler: (positional: string[], flags: Record<string, string>) => number | Promise<number>,
): Promise<number> {
  const parsed = parseFlags(args, command, options);
  if (parsed.refused !== undefined) {
    process.stderr.write(`tether ${command}: config_invalid: ${parsed.refused}\n\n${usage}`);
    return 2;
  }
  if (parsed.flags.help !== undefined) {
    process.stdout.write(usage);
    return 0;
  }
  return await handler(parsed.positional, parsed.flags);
}

type Fetchable = { fetch: (request: Request) => Response | Promise<Response> };

async function serve(positional: string[], flags: Record<string, string>): Promise<number> {
  const [modulePath] = positional;
  if (!modulePath) {
    process.stderr.write(`tether serve: name the module that exports your app.\n\n${HELP}`);
    return 2;
  }
  if (!existsSync(resolve(modulePath)))
    throw new TetherError("config_invalid", `There is no module at ${resolve(modulePath)}: name the file that exports your app.`);
  if (/\.[cm]?tsx?$/.test(modulePath)) await loadTypeScript(modulePath);
  const loaded = (await import(pathToFileURL(resolve(modulePath)).href)) as { default?: unknown };
  let exported = loaded.default;
  if (typeof exported === "function") exported = await (exported as () => unknown)();
  const app = toFetchable(exported);
  if (!app)
    throw new TetherError("config_invalid", `${modulePath} must export (by default) an app with fetch(), an object with an app, or a function returning one.`);
  // Loaded only to serve: the other commands run without the Node server package (an optional peer).
  const { listen } = await import("../server/adapters/node/index.ts").catch((error: unknown) => {
    throw missingDriver(error, "node") ?? error;
  });
  const server = await listen(app, { port: Number(flags.port ?? process.env.PORT ?? 8787), host: flags.host ?? process.env.HOST ?? "127.0.0.1" });
  process.stdout.write(`Tether serving ${modulePath} at ${server.url}\n`);
  await new Promise<void>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  await server.close();
  return 0;
}

/** Node 20 cannot import TypeScript: the app's own tsx does, when it has it. */
async function loadTypeScript(modulePath: string): Promise<void> {
  try {
    const { register } = await import("tsx/esm/api");
    register();
  } catch {
    throw new TetherError(
      "config_invalid",
      `${modulePath} is TypeScript, and Node cannot run it by itself: install tsx (npm install -D tsx) or serve the compiled JavaScript.`,
    );
  }
}

async function tools(args: string[]): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === "check") return await run("tools check", rest, TOOLS_CHECK_OPTIONS, TOOLS_CHECK_USAGE, (_, flags) => toolsCheck(flags));
  process.stderr.write(`Unknown command "${["tools", subcommand].filter(Boolean).join(" ")}".\n\n${HELP}`);
  return 2;
}

function toFetchable(value: unknown): Fetchable | undefined {
  if (value && typeof (value as Fetchable).fetch === "function") return value as Fetchable;
  const app = (value as { app?: unknown } | undefined)?.app;
  if (app && typeof (app as Fetchable).fetch === "function") return app as Fetchable;
  return undefined;
}
