import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedServices } from "./instances.ts";
import { nginxMissing, startNginx, UPSTREAM_HEADER, type Nginx } from "./nginx.ts";
import { startServerProcess, type ServerProcess } from "./server-process.ts";

/** Two demo servers, each a process of its own, on one PostgreSQL schema and one Redis, behind nginx. */
export interface Deployment {
  /** nginx's address: what people and tests use. */
  url: string;
  instances: [ServerProcess, ServerProcess];
  nginx: Nginx;
  /** The instance that served a response through nginx (the last one nginx tried). */
  servedBy(response: Response): ServerProcess;
  /** Makes nginx's round-robin send the next request to this instance (one worker, so it alternates strictly). */
  steerTo(instance: ServerProcess): Promise<void>;
  stop(): Promise<void>;
}

/** Whether the services a deployment needs are here; prints why not, and what would have run. */
export async function deploymentServices(what: string) {
  const services = await sharedServices(what);
  const missing = services.skipped ? undefined : nginxMissing();
  if (missing) console.info(`${what}: skipped. ${missing}`);
  return { ...services, skipped: services.skipped ?? missing };
}

/**
 * Starts the deployment: instance A, then B (the first migrates the schema),
 * sharing one data folder for the demo apps' own SQLite data (work
 * requests, the kitchen), so a request closed through one is closed through both.
 */
export async function startDeployment(options: { databaseUrl: string; redisUrl: string; schema: string; chunkDelayMs?: number }): Promise<Deployment> {
  const dataDir = mkdtempSync(join(tmpdir(), "tether-deployment-"));
  const shared = { databaseUrl: options.databaseUrl, schema: options.schema, redisUrl: options.redisUrl };
  const start = () => startServerProcess({ dataDir, shared, chunkDelayMs: options.chunkDelayMs ?? 0 });
  const a = await start();
  const b = await start().catch(async (error: unknown) => {
    await a.stop();
    throw error;
  });
  const address = (instance: ServerProcess) => new URL(instance.url).host;
  const nginx = await startNginx([address(a), address(b)]).catch(async (error: unknown) => {
    await Promise.all([a.stop(), b.stop()]);
    throw error;
  });
  const instances: [ServerProcess, ServerProcess] = [a, b];
  const servedBy = (response: Response) => {
    const tried = response.headers.get(UPSTREAM_HEADER) ?? "";
    const last = tried.split(",").at(-1)!.trim();
    const instance = instances.find((candidate) => address(candidate) === last);
    if (!instance) throw new Error(`nginx named no instance of this deployment: "${tried}"`);
    return instance;
  };
  return {
    url: nginx.url,
    instances,
    nginx,
    servedBy,
    async steerTo(instance) {
      for (let attempt = 0; attempt < 4; attempt++) {
        const probe = await fetch(`${nginx.url}/healthz`);
        await probe.arrayBuffer();
        if (servedBy(probe) !== instance) return;
      }
      throw new Error("nginx's round-robin did not alternate between the instances");
    },
    async stop() {
      await nginx.stop();
      await Promise.all(instances.map((instance) => instance.stop()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
