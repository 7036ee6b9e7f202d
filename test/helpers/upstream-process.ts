import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { npm } from "./npm.ts";

/** The AG-UI agent servers in test/fixtures/upstreams/, each an npm package of its own. */
export type UpstreamFixture = "copilotkit" | "mastra";

export interface InstalledUpstream {
  dir: string;
  /** How long `npm ci` took, in ms. */
  installMs: number;
  remove(): void;
}

export interface UpstreamProcess {
  /** Where it takes `POST RunAgentInput`. */
  url: string;
  child: ChildProcess;
  /** Everything it printed. */
  output(): string;
  /** Sends the signal and waits until the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Copies a fixture into a temporary folder outside the repo and installs it
 * from its lockfile (`npm ci`): exactly the versions pinned, from the registry
 * (or npm's cache), never the repo's node_modules.
 */
export async function installUpstream(name: UpstreamFixture): Promise<InstalledUpstream> {
  const source = fileURLToPath(new URL(`../fixtures/upstreams/${name}`, import.meta.url));
  const dir = mkdtempSync(join(tmpdir(), `tether-upstream-${name}-`));
  cpSync(source, dir, { recursive: true, filter: (path) => !/[/\\]node_modules$/.test(path) });
  const started = performance.now();
  await npm(dir, ["ci", "--no-audit", "--no-fund", "--prefer-offline"]);
  return { dir, installMs: Math.round(performance.now() - started), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs the installed fixture's server.mjs with its model at `modelUrl` (an
 * OpenAI-compatible base URL: aimock's) and its telemetry off; resolves once
 * it prints `LISTENING <url>`, rejects with what it printed if it exits first.
 */
export function startUpstream(dir: string, modelUrl: string): Promise<UpstreamProcess> {
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: dir,
    env: {
      ...process.env,
      OPENAI_BASE_URL: modelUrl,
      OPENAI_API_KEY: "mock",
      PORT: "0",
      COPILOTKIT_TELEMETRY_DISABLED: "true",
      MASTRA_TELEMETRY_DISABLED: "1",
      DO_NOT_TRACK: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /LISTENING (\S+)/.exec(output);
      if (!found) return;
      resolve({
        url: found[1]!,
        child,
        output: () => output,
        async stop(signal = "SIGTERM") {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code, signal) => reject(new Error(`server.mjs exited (${code ?? signal}):\n${output}`)));
  });
}
