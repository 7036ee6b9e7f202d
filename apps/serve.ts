/**
 * The demo server: the Tether runtime with the demo agents, the demo sign-in
 * and the apps' pages, on the embedded defaults (SQLite in TETHER_DATA_DIR,
 * the offline playbook model unless TETHER_MODEL names a real one).
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { isTetherError } from "tether/protocol";
import { consoleLogger, createSqliteRunStore, createTetherApp, type IdSource, type Logger, type PlaybookModelOptions, type TetherApp } from "tether/server";
import { listen } from "../src/server/listen.ts";
import { createDemoIdentity, type DemoIdentity } from "./demo-identity/demo-identity.ts";
import { modelFromEnvironment } from "./model-from-environment.ts";
import { WORKDESK_USERS, createSqliteWorkRequestRepository, createWorkdeskAgent, type WorkdeskUser } from "./workdesk/agent/index.ts";
import { workdeskApi } from "./workdesk/api.ts";
import { WEB_APPS, WORKDESK_WEB } from "./web-apps.ts";
import { ensureWebBundles } from "./web-bundle/ensure-web-bundles.ts";

export interface Demo {
  app: Hono;
  tether: TetherApp<WorkdeskUser>;
  identity: DemoIdentity;
  /** One line per agent: which model it runs on. */
  describe(): string[];
  /** Closes the Tether app (waiting for running runs), then the Workdesk's records. */
  close(): Promise<void>;
}

export interface DemoOptions {
  dataDir?: string;
  secret?: string;
  logger?: Logger;
  env?: Record<string, string | undefined>;
  /** Tests stream the playbook without pauses. */
  playbook?: PlaybookModelOptions;
  /** Tests let approvals lapse quickly. */
  approvalTimeoutMs?: number;
  ids?: IdSource;
}

export async function createDemo(options: DemoOptions = {}): Promise<Demo> {
  const env = options.env ?? process.env;
  const model = await modelFromEnvironment(env);
  // Origins besides the server's own whose pages may post with the sign-in cookie (a proxy that rewrites Host, say).
  const trustedOrigins = (env.TETHER_TRUSTED_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  const identity = createDemoIdentity({
    users: WORKDESK_USERS,
    trustedOrigins,
    ...(options.secret || env.TETHER_SECRET ? { secret: options.secret ?? env.TETHER_SECRET } : {}),
  });
  const dataDir = options.dataDir ?? env.TETHER_DATA_DIR ?? "./data";
  // ":memory:" keeps everything in memory, gone at exit, rather than in a folder of that name.
  const filename = dataDir === ":memory:" ? ":memory:" : join(dataDir, "tether.db");
  // The store first: it makes this the only process on the folder before anything else touches it.
  const store = createSqliteRunStore({ filename });
  // The same file as the threads: a thread that says R-1042 was closed and the record that says so survive, or go, together.
  const requests = await createSqliteWorkRequestRepository({ filename }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  try {
    const agents = [
      createWorkdeskAgent({
        requests,
        ...(model ? { model } : options.playbook ? { playbook: options.playbook } : {}),
        ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
      }),
    ];
    const tether = await createTetherApp({
      agents,
      authenticate: identity.authenticate,
      store,
      trustedOrigins,
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.ids ? { ids: options.ids } : {}),
    });
    const app = new Hono();
    app.onError(tether.onError);
    app.notFound(tether.notFound);
    app.route("/api/demo", identity.routes);
    app.route("/api/workdesk", workdeskApi({ auth: tether.auth, requests, trustedOrigins }));
    app.route("/", tether.app);
    servePages(app, WORKDESK_WEB.outDir);
    return {
      app,
      tether,
      identity,
      describe: () =>
        agents.map(
          (agent) => `${agent.id}: ${agent.model.provider === "tether.playbook" ? "offline playbook model" : agent.model.provider} (${agent.model.modelId})`,
        ),
      async close() {
        try {
          await tether.close();
        } finally {
          requests.closeDatabase();
        }
      },
    };
  } catch (error) {
    // A demo that failed to start leaves no handle open on its data folder.
    requests.closeDatabase();
    await store.close();
    throw error;
  }
}

/**
 * Serves an app's built pages, and its index.html for every other path that is
 * not the API, so the app's own routes (/work-requests/R-1042) load on reload.
 */
function servePages(app: Hono, folder: string) {
  const root = relative(process.cwd(), folder); // serveStatic takes a path relative to the working folder
  const index = join(folder, "index.html");
  app.use("/assets/*", serveStatic({ root }));
  app.get("/tools.manifest.json", serveStatic({ root }));
  app.get("*", async (c, next) => {
    if (c.req.path.startsWith("/api/")) return next();
    // Looked up per request: `npm start` builds the pages after the demo is set up, and `npm run build` may run beside a server.
    if (!existsSync(index))
      return c.text(`The web pages are not built: run "npm run build" (npm start builds them when they are missing or out of date).`, 503);
    return serveStatic({ root, path: "index.html" })(c, next);
  });
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
  // After the configuration is checked, so a wrong setting is reported at once rather than after a build.
  try {
    await ensureWebBundles(WEB_APPS, { log: (line) => logger.info(line) });
  } catch (error) {
    console.error(`The web pages did not build: ${error instanceof Error ? error.message : String(error)}\nFix that, then run "npm start" again.`);
    await demo.tether.close();
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 8787);
  const host = process.env.HOST ?? "127.0.0.1";
  const server = await listen(demo.app, { port, host });
  logger.info(`Demo sign-in is for demos only: anyone can act as any demo user.`);
  for (const line of demo.describe()) logger.info(`agent ${line}`);
  console.log(`Tether demo running at ${server.url}`);
  // Stops serving, lets running runs end and stores them, then exits; a failure on the way still exits, saying why.
  const stop = () => {
    server
      .close()
      .then(() => demo.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error("Tether could not stop cleanly:", error);
          process.exit(1);
        },
      );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
