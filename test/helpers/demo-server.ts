import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpAgent } from "@ag-ui/client";
import { silentLogger } from "@tether-agent/tether/server";
import { createDemo, type Demo, type DemoOptions } from "../../apps/serve.ts";
import { listen } from "@tether-agent/tether/node";

export interface DemoServer {
  url: string;
  demo: Demo;
  dataDir: string;
  /** A signed demo token for the user. */
  token(user: string): string;
  /** A plain, unmodified AG-UI HttpAgent for an agent (the Workdesk's by default), signed in as the user. */
  agent(user: string, threadId: string, agentId?: string): HttpAgent;
  close(): Promise<void>;
}

/**
 * The demo server on a free loopback port with its own data folder, the
 * playbook streaming without pauses. Threads and runs go to SQLite in that
 * folder, or to PostgreSQL with `databaseUrl` (give each test a
 * `databaseSchema` of its own, see helpers/postgres.ts).
 */
export async function startDemoServer(options: DemoOptions = {}): Promise<DemoServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "tether-test-"));
  const demo = await createDemo({ dataDir, secret: "test-secret", logger: silentLogger, playbook: { chunkDelayMs: 0 }, env: {}, ...options });
  const server = await listen(demo.app, { port: 0, host: "127.0.0.1" });
  const token = (user: string) => demo.identity.issueToken(user);
  return {
    url: server.url,
    demo,
    dataDir,
    token,
    agent: (user, threadId, agentId = "workdesk") =>
      new HttpAgent({ url: `${server.url}/api/agents/${agentId}/run`, headers: { Authorization: `Bearer ${token(user)}` }, threadId }),
    async close() {
      await server.close();
      await demo.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
