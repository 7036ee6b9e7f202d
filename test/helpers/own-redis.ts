import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { Redis } from "ioredis";

/** A Redis server of the test's own, which it may stop (SIGSTOP) without touching anyone else's. */
export interface OwnRedis {
  url: string;
  /** Stops the server as SIGSTOP does: its connections stay open and nothing answers. */
  stall(): void;
  /** Lets it go on (SIGCONT). */
  resume(): void;
  /** Clients connected now, by name (`CLIENT SETNAME`; "" when unnamed), this helper's own asking connection left out. */
  clients(): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Whether `redis-server` can be started here: the binary, or why the test is
 * skipped. With `TETHER_TEST_REQUIRE_REDIS=1` (CI, which has it) a missing
 * binary fails instead, so a missing service is never green.
 */
export function redisServerBinary(): { skipped?: string } {
  const found = spawnSync("redis-server", ["--version"], { encoding: "utf8" });
  if (found.status === 0) return {};
  const why = "redis-server is not installed";
  if (process.env.TETHER_TEST_REQUIRE_REDIS === "1") throw new Error(`${why}, and TETHER_TEST_REQUIRE_REDIS=1 requires it.`);
  return { skipped: `${why}; install Redis to run these tests.` };
}

/** Starts `redis-server` on a free port, without persistence, as a child of the test process. */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  const url = `redis://127.0.0.1:${port}`;
  const admin = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, commandTimeout: 5000 });
  admin.on("error", () => undefined);
  for (let tries = 0; ; tries++) {
    try {
      await admin.connect();
      await admin.ping();
      break;
    } catch (error) {
      if (tries > 100) throw error;
      admin.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  let stalled = false;
  return {
    url,
    stall() {
      stalled = true;
      child.kill("SIGSTOP");
    },
    resume() {
      stalled = false;
      child.kill("SIGCONT");
    },
    async clients() {
      const [own, list] = (await Promise.all([admin.client("ID"), admin.client("LIST")])) as [number, string];
      return list
        .split("\n")
        .filter((line) => line.trim() && !line.startsWith(`id=${own} `))
        .map((line) => /(?:^| )name=(\S*)/.exec(line)?.[1] ?? "");
    },
    async stop() {
      admin.disconnect();
      if (stalled) child.kill("SIGCONT");
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
