import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { createDemoIdentity } from "../../apps/demo-identity/demo-identity.ts";
import { RECIPES_USERS } from "../../apps/recipes/agent/index.ts";
import { WORKDESK_USERS } from "../../apps/workdesk/agent/index.ts";

const SCRIPT = fileURLToPath(new URL("./demo-process.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything it printed. */
  output(): string;
  /** Sends the signal and waits until the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts the demo server in a process of its own and waits until it serves (or exits: then rejects with what it printed). */
export function startServerProcess(options: {
  dataDir: string;
  port?: number;
  chunkDelayMs?: number;
  secret?: string;
  /** One of several instances: threads and runs in this PostgreSQL schema, live events through this Redis. */
  shared?: { databaseUrl: string; schema: string; redisUrl: string };
}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--conditions=tether-source", "--import", "tsx", SCRIPT], {
    cwd: ROOT,
    env: {
      ...process.env,
      TETHER_DATA_DIR: options.dataDir,
      PORT: String(options.port ?? 0),
      TETHER_TEST_CHUNK_DELAY_MS: String(options.chunkDelayMs ?? 0),
      TETHER_MODEL: "",
      TETHER_SECRET: options.secret ?? "test-secret",
      TETHER_DATABASE_URL: options.shared?.databaseUrl ?? "",
      TETHER_DATABASE_SCHEMA: options.shared?.schema ?? "",
      TETHER_REDIS_URL: options.shared?.redisUrl ?? "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /listening (http:\/\/\S+)/.exec(output);
      if (match) {
        resolve({
          url: match[1]!,
          pid: child.pid!,
          child,
          output: () => output,
          async stop(signal = "SIGTERM") {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            await exited;
          },
        });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    child.once("exit", (code) => reject(Object.assign(new Error(`The server process exited with ${code}:\n${output}`), { output: () => output, code })));
  });
}

/** A port nobody listens on now, so a restarted server can come back where its clients left it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Demo tokens the server processes accept (they share the test secret): for the Workdesk's people and the Recipes'. */
export const tokenFor = (user: string, secret = "test-secret") => createDemoIdentity({ users: [...WORKDESK_USERS, ...RECIPES_USERS], secret }).issueToken(user);
