import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Flags that say how sources are loaded, not how Node runs them. */
const LOADING = ["--conditions=", "--import=", "--require=", "--loader=", "--experimental-loader="];

/**
 * Node's own flags in `npm start` (package.json's start script, `exec node --flag=value … --import=tsx <entry>`: its
 * young and old generation sizes), so a benchmark's server runs as the demo does. How the script loads its
 * sources the benchmarks do their own way; a script of another shape is refused rather than read wrongly.
 */
export const startNodeFlags: string[] = nodeFlagsOf((JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as { scripts: { start: string } }).scripts.start);

/** The Node flags of a start script `[exec] node --flag=value … <entry>`, less how it loads its sources. */
export function nodeFlagsOf(script: string): string[] {
  const words = script.trim().split(/\s+/);
  const [command, ...args] = words[0] === "exec" ? words.slice(1) : words;
  const entry = args.findIndex((arg) => !arg.startsWith("--"));
  const flags = args.slice(0, entry);
  const kept = flags.filter((flag) => !LOADING.some((loading) => flag.startsWith(loading)));
  // A short option (`-r x`) or a flag without its value inline would make the entry, and every flag after it, a guess.
  // Words split on spaces, as no shell does: a quote, a variable or a second command would be read wrongly, so they are refused.
  const readable =
    command === "node" &&
    entry >= 0 &&
    entry === args.length - 1 &&
    !args[entry]!.startsWith("-") &&
    flags.every((flag) => /^--[a-z0-9-]+=[^"'`$;&|<>\\]+$/.test(flag));
  if (!readable || kept.length === 0) {
    throw new Error(`package.json's start script is not "exec node --flag=value … --import=tsx <entry>" with Node flags of its own: ${script}`);
  }
  return kept;
}

export interface StartedProcess {
  name: string;
  pid: number;
  /** The first capture of the `ready` pattern: the URL it serves. */
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** SIGTERM, then waits until it is gone. */
  stop(): Promise<void>;
}

/**
 * Starts `node <args>` from the project's root and resolves once its output
 * matches `ready` (whose first group is its URL); rejects with what it
 * printed when it exits first or takes longer than `timeoutMs`. With `ipc`,
 * the child gets a message channel (`process.send`).
 */
export function startProcess(
  name: string,
  args: string[],
  options: { env: Record<string, string | undefined>; ready: RegExp; ipc?: boolean; timeoutMs?: number },
): Promise<StartedProcess> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe", ...(options.ipc ? (["ipc"] as const) : [])],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${name} did not start within ${options.timeoutMs ?? 120_000} ms:\n${output}`));
    }, options.timeoutMs ?? 120_000);
    const onOutput = (chunk: Buffer) => {
      output += chunk;
      const match = options.ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        name,
        pid: child.pid!,
        url: match[1]!,
        child,
        output: () => output,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
          await exited;
        },
      });
    };
    child.stdout!.on("data", onOutput);
    child.stderr!.on("data", onOutput);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before it served:\n${output}`));
    });
  });
}
