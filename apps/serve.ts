/**
 * The demo server: the Tether runtime with the demo agents, the demo sign-in
 * and the apps' pages, on the embedded defaults (SQLite in TETHER_DATA_DIR,
 * the offline playbook model unless TETHER_MODEL names a real one).
 */
import { pathToFileURL } from "node:url";
import { Hono } from "hono";
import { isTetherError } from "tether/protocol";
import {
  consoleLogger,
  createDemoIdentity,
  createTetherApp,
  modelFromEnvironment,
  type DemoIdentity,
  type IdSource,
  type Logger,
  type PlaybookModelOptions,
  type TetherApp,
} from "tether/server";
import { listen } from "../src/server/listen.ts";
import { WORKDESK_USERS, createWorkdeskAgent } from "./workdesk/agent/index.ts";

export interface Demo {
  app: Hono;
  tether: TetherApp;
  identity: DemoIdentity;
  /** One line per agent: which model it runs on. */
  describe(): string[];
}

export interface DemoOptions {
  dataDir?: string;
  secret?: string;
  logger?: Logger;
  env?: Record<string, string | undefined>;
  /** Tests stream the playbook without pauses. */
  playbook?: PlaybookModelOptions;
  ids?: IdSource;
}

export async function createDemo(options: DemoOptions = {}): Promise<Demo> {
  const env = options.env ?? process.env;
  const model = modelFromEnvironment(env);
  const identity = createDemoIdentity({ users: WORKDESK_USERS, ...(options.secret || env.TETHER_SECRET ? { secret: options.secret ?? env.TETHER_SECRET } : {}) });
  const agents = [createWorkdeskAgent(model ? { model } : { ...(options.playbook ? { playbook: options.playbook } : {}) })];
  const tether = await createTetherApp({
    agents,
    authenticate: identity.authenticate,
    dataDir: options.dataDir ?? env.TETHER_DATA_DIR ?? "./data",
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.ids ? { ids: options.ids } : {}),
  });
  const app = new Hono();
  app.onError(tether.onError);
  app.notFound(tether.notFound);
  app.route("/api/demo", identity.routes);
  app.route("/", tether.app);
  app.get("/", (c) => c.html(landingPage(agents.map((agent) => agent.id))));
  return {
    app,
    tether,
    identity,
    describe: () => agents.map((agent) => `${agent.id}: ${agent.model.provider === "tether.playbook" ? "offline playbook model" : agent.model.provider} (${agent.model.modelId})`),
  };
}

function landingPage(agents: string[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tether demo</title></head>
<body><main><h1>Tether demo</h1><p>Agents: ${agents.join(", ")}. The AG-UI API is at <code>/api</code>; sign in with <code>POST /api/demo/login {"user":"kim"}</code> (demo only).</p></main></body></html>`;
}

async function main() {
  const logger = consoleLogger;
  let demo: Demo;
  try {
    demo = await createDemo({ logger });
  } catch (error) {
    console.error(isTetherError(error) ? `Tether could not start (${error.code}): ${error.message}` : error);
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 8787);
  const host = process.env.HOST ?? "127.0.0.1";
  const server = await listen(demo.app, { port, host });
  logger.info(`Demo sign-in is for demos only: anyone can act as any demo user.`);
  for (const line of demo.describe()) logger.info(`agent ${line}`);
  console.log(`Tether demo running at ${server.url}`);
  const stop = async () => {
    await server.close();
    await demo.tether.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
