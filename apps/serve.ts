/**
 * The demo server: the Tether runtime with the demo agents, the demo sign-in
 * and the apps' pages, on the embedded defaults (SQLite in TETHER_DATA_DIR,
 * the offline playbook model unless TETHER_MODEL, or TETHER_ADK_MODEL for
 * the ADK agent, names a real one), or with
 * threads and runs, and the apps' own data, on PostgreSQL when
 * TETHER_DATABASE_URL is set.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { Hono } from "hono";
import { TetherError, isTetherError } from "@tether-agent/tether/protocol";
import {
  consoleLogger,
  createTetherApp,
  type IdSource,
  type Logger,
  type PlaybookModelOptions,
  type TelemetryOptions,
  type TetherApp,
} from "@tether-agent/tether/server";
import { createPgRunStore } from "@tether-agent/tether/pg";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { listen } from "@tether-agent/tether/node";
import { openDemoData } from "./demo-data.ts";
import { createDemoIdentity, type DemoIdentity } from "./demo-identity/demo-identity.ts";
import { modelFromEnvironment } from "./model-from-environment.ts";
import { stopOnSignals } from "./stop-on-signals.ts";
import { telemetryFromEnvironment } from "./telemetry-from-environment.ts";
import { RECIPES_USERS, createRecipesAgent, type RecipesUser } from "./recipes/agent/index.ts";
import { createDojoAgents } from "./dojo/agent/index.ts";
import { recipesApi } from "./recipes/api.ts";
import { WORKDESK_USERS, createWorkdeskAgent, workdeskRecordReaders, type WorkdeskUser } from "./workdesk/agent/index.ts";
import { workdeskApi } from "./workdesk/api.ts";
import { startWorkdeskUpstream, type WorkdeskUpstream } from "./workdesk/upstream/index.ts";
import { DOJO_WEB, RECIPES_WEB, RUNS_WEB, WEB_APPS, WORKDESK_WEB } from "./web-apps.ts";
import { ensureWebBundles } from "./web-bundle/ensure-web-bundles.ts";
import { servePages } from "./serve-pages.ts";

/** Anyone the demo sign-in knows: the Workdesk's people and the Recipes'. Each agent and API serves its own kind. */
export type DemoUser = WorkdeskUser | RecipesUser;

export interface Demo {
  app: Hono;
  tether: TetherApp<DemoUser>;
  identity: DemoIdentity;
  /** One line per agent: which model it runs on. */
  describe(): string[];
  /** Where the demo sends its spans, when OTEL_EXPORTER_OTLP_ENDPOINT turned telemetry on. */
  telemetryUrl?: string;
  /** Where the apps' own data (work requests, the kitchen) lives, for the start-up log. */
  dataWhere: string;
  /** Closes the Tether app (waiting for running runs), then the apps' own data. */
  close(): Promise<void>;
}

export interface DemoOptions {
  dataDir?: string;
  /** Threads and runs, and the apps' own data, on PostgreSQL rather than in the data folder. Default: `TETHER_DATABASE_URL`. */
  databaseUrl?: string;
  /** Their schema there (the apps' data goes to `<schema>_demo`). Default: `TETHER_DATABASE_SCHEMA` or `tether`. */
  databaseSchema?: string;
  /** Live events through Redis, so instances serve each other's runs. Default: `TETHER_REDIS_URL`; unset, in-process only. */
  redisUrl?: string;
  secret?: string;
  logger?: Logger;
  env?: Record<string, string | undefined>;
  /** Tests stream the playbook without pauses. */
  playbook?: PlaybookModelOptions;
  /** The AI SDK agents on this model rather than TETHER_MODEL's (a benchmark's, answering without a provider); not `workdesk-adk`, whose model is ADK's. */
  model?: LanguageModelV3;
  /** Tests let approvals lapse quickly. */
  approvalTimeoutMs?: number;
  ids?: IdSource;
  /** Tests trace into their own provider; otherwise OTEL_EXPORTER_OTLP_ENDPOINT decides (see telemetryFromEnvironment). */
  telemetry?: TelemetryOptions;
}

/** How the start-up log names an agent's engine, where its provider id says too little. */
const ENGINE_NAMES: Record<string, string> = { "tether.playbook": "offline playbook model", adk: "ADK agent" };

export async function createDemo(options: DemoOptions = {}): Promise<Demo> {
  const env = options.env ?? process.env;
  const model = options.model ?? (await modelFromEnvironment(env));
  // Origins besides the server's own whose pages may post with the sign-in cookie (a proxy that rewrites Host, say).
  const trustedOrigins = (env.TETHER_TRUSTED_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  const identity = createDemoIdentity({
    users: [...WORKDESK_USERS, ...RECIPES_USERS] as DemoUser[],
    trustedOrigins,
    ...(options.secret || env.TETHER_SECRET ? { secret: options.secret ?? env.TETHER_SECRET } : {}),
  });
  const dataDir = options.dataDir ?? env.TETHER_DATA_DIR ?? "./data";
  // ":memory:" keeps everything in memory, gone at exit, rather than in a folder of that name.
  const filename = dataDir === ":memory:" ? ":memory:" : join(dataDir, "tether.db");
  const databaseUrl = options.databaseUrl ?? env.TETHER_DATABASE_URL;
  const databaseSchema = options.databaseSchema ?? (env.TETHER_DATABASE_SCHEMA || "tether");
  // The store first: on SQLite it makes this the only process on the folder before anything else touches it.
  const store = databaseUrl ? await createPgRunStore({ connectionString: databaseUrl, schema: databaseSchema }) : createSqliteRunStore({ filename });
  // Beside the threads (the same SQLite file, or the same PostgreSQL database): a thread that says R-1042 was closed
  // and the record that says so survive, or go, together, and every instance sees the same requests and orders.
  const data = await openDemoData({ filename, ...(databaseUrl ? { databaseUrl } : {}), databaseSchema, logger: options.logger ?? consoleLogger }).catch(
    async (error: unknown) => {
      await store.close();
      throw error;
    },
  );
  const { requests, kitchen } = data;
  // Only when the environment asks for it: otherwise the runtime does no span work at all.
  const telemetry = options.telemetry ? undefined : telemetryFromEnvironment(env);
  let upstream: WorkdeskUpstream | undefined;
  try {
    // The Workdesk story again, served by an agent written with the AI SDK that Tether stands in front of.
    upstream = await startWorkdeskUpstream({ requests, ...(model ? { model } : options.playbook ? { playbook: options.playbook } : {}) });
    // And as an ADK agent. Importing @google/adk loads some 2,300 modules (seconds): imported here, so only a demo
    // that starts pays for it, once, and not every module that imports this file. TETHER_ADK_MODEL picks its model.
    const { createWorkdeskAdkAgent } = await import("./workdesk/adk/index.ts");
    const agents = [
      createWorkdeskAgent({
        requests,
        ...(model ? { model } : options.playbook ? { playbook: options.playbook } : {}),
        ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
      }),
      createRecipesAgent({
        ...(model ? { model } : options.playbook ? { playbook: options.playbook } : {}),
        ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
      }),
      upstream.agent,
      // The AG-UI dojo's features, one agent each under the dojo's own ids (the dojo's frontends and /dojo/ drive them).
      ...createDojoAgents({ ...(model ? { model } : options.playbook ? { playbook: options.playbook } : {}) }),
      createWorkdeskAdkAgent({
        requests,
        env,
        ...(options.playbook ? { playbook: options.playbook } : {}),
        ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
      }),
    ];
    const tether = await createTetherApp<DemoUser>({
      agents,
      authenticate: identity.authenticate,
      store,
      // "" rather than undefined: the demo reads its own environment, not the process's.
      redisUrl: options.redisUrl ?? env.TETHER_REDIS_URL ?? "",
      trustedOrigins,
      // The Workdesk's admins read the Workdesk runs' records of their own organisation (the viewer at /runs/); everyone else only their own.
      canReadRecord: workdeskRecordReaders(WORKDESK_USERS),
      // Signs the Recipes agent's stateless approvals: with TETHER_SECRET set, an order asked before a restart can still be approved after it.
      ...(options.secret || env.TETHER_SECRET ? { secret: options.secret ?? env.TETHER_SECRET } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.ids ? { ids: options.ids } : {}),
      ...(options.telemetry ? { telemetry: options.telemetry } : telemetry ? { telemetry: { tracerProvider: telemetry.tracerProvider } } : {}),
    });
    const app = new Hono();
    app.onError(tether.onError);
    app.notFound(tether.notFound);
    app.route("/api/demo", identity.routes);
    app.route("/api/workdesk", workdeskApi({ auth: tether.auth, requests, trustedOrigins }));
    app.route("/api/recipes", recipesApi({ auth: tether.auth, kitchen, trustedOrigins }));
    app.route("/", tether.app);
    servePages(app, RECIPES_WEB.outDir, "/recipes");
    servePages(app, RUNS_WEB.outDir, "/runs");
    servePages(app, DOJO_WEB.outDir, "/dojo");
    servePages(app, WORKDESK_WEB.outDir);
    return {
      app,
      tether,
      identity,
      describe: () => agents.map((agent) => `${agent.id}: ${ENGINE_NAMES[agent.engine.provider] ?? agent.engine.provider} (${agent.engine.modelId})`),
      ...(telemetry ? { telemetryUrl: telemetry.url } : {}),
      dataWhere: data.where,
      async close() {
        try {
          await tether.close();
        } finally {
          await upstream?.close();
          await data.close();
          // Last: the runs that just ended have their spans queued; shutting down sends them.
          await telemetry?.shutdown();
        }
      },
    };
  } catch (error) {
    // A demo that failed to start leaves no handle open on its data folder.
    await upstream?.close();
    await telemetry?.shutdown();
    await data.close();
    await store.close();
    throw error;
  }
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
  // Behind a proxy that keeps the public name (nginx's Host $http_host), the names it may carry.
  const allowedHosts = process.env.TETHER_ALLOWED_HOSTS?.split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const server = await listen(demo.app, { port, host, ...(allowedHosts?.length ? { allowedHosts } : {}) });
  logger.info(`Demo sign-in is for demos only: anyone can act as any demo user.`);
  for (const line of demo.describe()) logger.info(`agent ${line}`);
  const url = server.url;
  logger.info(`pages: ${url}/ (Workdesk), ${url}/recipes/ (Recipes), ${url}/runs/ (run records), ${url}/dojo/ (the AG-UI dojo's features)`);
  if (demo.telemetryUrl) logger.info(`OpenTelemetry spans go to ${demo.telemetryUrl}`);
  if (process.env.TETHER_DATABASE_URL)
    logger.info(`Threads and runs are stored in PostgreSQL (TETHER_DATABASE_URL); the apps' own data too, in ${demo.dataWhere}.`);
  if (process.env.TETHER_REDIS_URL) logger.info("Live events go through Redis (TETHER_REDIS_URL): every instance can serve every run.");
  // Ctrl-C (or SIGTERM) once: stop serving, let the runs in progress end and store them, then exit; a failure on the
  // way still exits, saying why. Again: stop those runs now (stored as stopped). Once more: exit without waiting.
  const stop = stopOnSignals({
    graceful() {
      console.log("Tether demo stopping: runs in progress end first (Ctrl-C again to stop them now).");
      server
        .close()
        .then(() => demo.close())
        .then(
          () => {
            console.log("Tether demo stopped.");
            process.exit(0);
          },
          (error: unknown) => {
            console.error("Tether could not stop cleanly:", error);
            process.exit(1);
          },
        );
    },
    hurry() {
      const stopped = demo.tether.runner.stopAll(new TetherError("instance_lost", "The server was stopped while this run was in progress."));
      console.log(`Tether demo: ${stopped} run(s) in progress stopped now (Ctrl-C once more exits without waiting).`);
    },
    exit() {
      console.error("Tether demo: exiting without waiting; runs still in progress are ended as lost at the next start.");
      process.exit(1);
    },
  });
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // Said only once a stop signal is handled: a supervisor that stops the server as soon as it reads this must find
  // the handlers in place (without them, Node dies at the signal, stopping nothing cleanly).
  console.log(`Tether demo running at ${server.url}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
