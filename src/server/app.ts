import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { trace } from "@opentelemetry/api";
import { Hono, type MiddlewareHandler } from "hono";
import { TetherError } from "../protocol/index.ts";
import type { Agent } from "./agent/index.ts";
import type { Authenticate, TetherUser } from "./auth/index.ts";
import { type ApiOptions, errorHandler, notFoundHandler, consoleLogger, type Logger, type CanReadRecord, type RecordScope } from "./http/index.ts";
import { auth, type AuthEnv, bodyLimit, requireJson } from "./http/middleware/index.ts";
import { capabilityRoutes, runAgentRoutes, runRoutes, threadRoutes } from "./http/routes/index.ts";
import { createRunHub, type RunHub, type RunHubFactory, withStoredCancels, isRunLive } from "./hub/index.ts";
import { DEFAULT_LEASE_SWEEP_MS, startLeaseSweeper, createRandomIds, type IdSource, providerMessage, createRunner, type Runner } from "./run/index.ts";
import { loadAdapter } from "./load-adapter.ts";
import type { RunStore } from "./store/index.ts";
import { type TelemetryOptions, traceRuns } from "./telemetry/index.ts";

export interface TetherAppOptions<User extends TetherUser = TetherUser> extends ApiOptions {
  agents: Agent<User>[];
  /** Who is asking (the app's own user type, with an `id`); return undefined for missing or bad credentials. */
  authenticate: Authenticate<User>;
  /** Where threads and runs live. Default: PostgreSQL at `databaseUrl` when set, else SQLite in `dataDir`. */
  store?: RunStore;
  /**
   * PostgreSQL for the store, shared by several instances. Default:
   * `TETHER_DATABASE_URL`; unset, the SQLite store in `dataDir`. Tables live
   * in `databaseSchema`.
   */
  databaseUrl?: string;
  /** The PostgreSQL schema of Tether's tables, made by its migrations. Default: `TETHER_DATABASE_SCHEMA` or `tether`. */
  databaseSchema?: string;
  /**
   * Redis, through which several instances serve each other's runs: the live
   * tail and `Last-Event-ID` reconnects of a run executing on another instance.
   * Default: `TETHER_REDIS_URL`; unset, events fan out in this process only
   * (and Redis is never loaded).
   */
  redisUrl?: string;
  /**
   * The fan-out across instances, made at start, instead of the one `redisUrl` picks: e.g.
   * `redisHub({ url, prefix })` from `@tether-agent/tether/redis`. Giving both is `config_invalid`.
   */
  hub?: RunHubFactory;
  /**
   * How often, in ms, this instance ends the runs of instances that died
   * (RUN_ERROR `instance_lost` for their clients on every instance), on a
   * store several instances share. Default 3000. A run's clients hear of its
   * instance's death within this plus the 2 s a follower on another instance
   * waits before it asks the store.
   */
  leaseSweepMs?: number;
  /** Folder of the default SQLite store. Default: `TETHER_DATA_DIR` or `./data`. */
  dataDir?: string;
  /** Largest request body accepted, in bytes. Default 1 MiB. */
  bodyLimit?: number;
  /**
   * Signs stateless approvals (agents in `client` history mode). Default:
   * `TETHER_SECRET`, else random per start, which makes open approvals of
   * stateless agents void after a restart.
   */
  secret?: string;
  now?: () => Date;
  ids?: IdSource;
  logger?: Logger;
  /**
   * Who may read the run records and thread chain (`GET /runs/:runId/record`,
   * `GET /threads/:threadId/runs`) of a thread they do not own, given its
   * owner and agent: an app's admins, within their own scope (the app maps
   * `ownerId` to its organisation, team, tenant). A reader it refuses gets
   * the answer any other user's thread gets (403 `forbidden`). Default: nobody.
   *
   * @example
   * canReadRecord: (reader, { ownerId, agentId }) =>
   *   agentId === "workdesk" && reader.roles.includes("admin") && organisationOf(ownerId) === reader.organisation
   */
  canReadRecord?: (reader: User, record: RecordScope) => boolean | Promise<boolean>;
  /**
   * @deprecated Use `canReadRecord`: this one cannot see whose record it is,
   * so whoever it allows reads every user's records of the agent, across
   * organisations. Still honoured, as `canReadRecord: (reader, { agentId }) =>
   * canReadAllRecords(reader, agentId)`, with a warning at start; giving both
   * is `config_invalid`.
   */
  canReadAllRecords?: (user: User, agentId: string) => boolean;
  /**
   * Whether runs write down their model calls, the tools they were offered
   * and what an upstream agent sent for their records. Default true. An
   * operator's choice: with `false` a record still has the run's input,
   * events, reports and outcome (those are stored for the thread anyway), but
   * no model calls, no tool decisions and no upstream events.
   */
  records?: boolean;
  /**
   * OpenTelemetry spans for every run, model call and tool execution, and the
   * trace id in each run's record. Off when absent: no span work at all.
   *
   * @example
   * const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
   * const tether = await createTetherApp({ agents, authenticate, telemetry: { tracerProvider: provider } });
   * // on shutdown: await tether.close(); await provider.shutdown();
   */
  telemetry?: TelemetryOptions;
}

export interface TetherApp<User extends TetherUser = TetherUser> {
  /** The HTTP API, routes relative to where it is mounted (`/api` by convention). */
  api: Hono;
  /** The API mounted at `/api`, with `/healthz`: ready to serve. */
  app: Hono;
  runner: Runner;
  hub: RunHub;
  store: RunStore;
  /** Middleware that puts the caller on `c.var.user`, for an app's own routes. */
  auth: MiddlewareHandler<AuthEnv<User>>;
  /** Tether's error and not-found responses, for the app that mounts it: `root.onError(tether.onError)`. */
  onError: ReturnType<typeof errorHandler>;
  notFound: typeof notFoundHandler;
  /** Waits for running runs to end, then closes the store. */
  close(): Promise<void>;
}

/**
 * The Tether runtime as a Hono app: the one place that picks the store, the
 * fan-out and the id source.
 *
 * @example
 * const tether = await createTetherApp({ agents: [workdesk], authenticate });
 * serve({ fetch: tether.app.fetch, port: 8787 });
 */
export async function createTetherApp<User extends TetherUser = TetherUser>(options: TetherAppOptions<User>): Promise<TetherApp<User>> {
  const logger = options.logger ?? consoleLogger;
  const agents = new Map<string, Agent>();
  for (const agent of options.agents) {
    if (agents.has(agent.id)) throw new TetherError("config_invalid", `Two agents are named "${agent.id}".`);
    agents.set(agent.id, agent);
  }
  const canReadRecord = recordReaders(options, logger);
  const store = options.store ?? (await defaultStore(options));
  const recovered = await store.recoverInterruptedRuns();
  if (recovered > 0) logger.warn(`${recovered} run(s) were left running by a process that stopped; they now end with RUN_ERROR instance_lost.`);
  const hub = await createHub(store, options, logger);
  // Only a store that live instances share can lose a run while this one runs (see RunStore.endRunsOfLostInstances).
  const sweeper =
    store.endRunsOfLostInstances &&
    startLeaseSweeper({
      sweep: () => store.endRunsOfLostInstances!(),
      intervalMs: options.leaseSweepMs ?? DEFAULT_LEASE_SWEEP_MS,
      onEnded: (count) => logger.warn(`${count} run(s) of an instance that stopped now end with RUN_ERROR instance_lost.`),
      onError: (error) => logger.error("Could not end the runs of instances that stopped; will keep trying.", error),
    });
  const secret = options.secret || process.env.TETHER_SECRET || randomBytes(32).toString("hex");
  if (!options.secret && !process.env.TETHER_SECRET && (store.endRunsOfLostInstances || hub.requestCancel)) logger.warn(RANDOM_SECRET_WARNING);
  const runner = createRunner({
    agents,
    store,
    hub,
    ids: options.ids ?? createRandomIds(),
    secret,
    ...(options.now ? { now: options.now } : {}),
    ...(options.records === false ? { records: false } : {}),
    // Decided once: without telemetry, runs have no observer and do no span work.
    ...(options.telemetry ? { observeRun: traceRuns(options.telemetry.tracerProvider ?? trace.getTracerProvider()) } : {}),
    onLoopError: (error, runId) => logger.error(`Run ${runId} failed after its stream ended.`, error),
    onModelError: (error, runId) => logger.warn(`Run ${runId}: ${error.message} The provider said: ${providerMessage(error) ?? "nothing"}`),
  });
  // Another instance's cancel of a run executing here (several instances on one bus).
  hub.serveCancels?.((runId) => runner.cancel(runId));
  // Once this instance has lost its hold on a shared store, another may end its runs as lost at any moment:
  // it stops them itself, so none is finished twice nor writes into a thread that has moved on.
  store.onOwnershipLost?.((error) => {
    const stopped = runner.stopAll(new TetherError("instance_lost", INSTANCE_LOST_MESSAGE));
    logger.error(`This instance lost its hold on the database; ${stopped} run(s) it was executing were stopped with RUN_ERROR instance_lost.`, error);
  });
  // Cookie-authenticated mutations from our own pages only (CSRF); Bearer ones from anywhere.
  const authenticate = auth(options.authenticate, { trustedOrigins: options.trustedOrigins ?? [], ambientHeaders: options.ambientHeaders ?? [] });
  const limit = options.bodyLimit ?? 1024 * 1024;

  const api = new Hono();
  api.onError(errorHandler(logger));
  api.notFound(notFoundHandler);
  api.use("*", requireJson()); // mutations: JSON only (a form or text/plain post from another site is no API call)
  for (const prefix of ["/agents/*", "/threads/*", "/runs/*"]) api.use(prefix, authenticate);
  api.use(
    "*",
    bodyLimit({
      maxSize: limit,
      onError: () => {
        throw new TetherError("body_too_large", `The request body is larger than ${limit} bytes.`);
      },
    }),
  );
  api.route("/", runAgentRoutes(runner, hub, logger));
  api.route("/", capabilityRoutes(agents));
  const records = { store, isLive: (runId: string) => isRunLive(hub, runId), generatedUi: (agentId: string) => Boolean(agents.get(agentId)?.generatedUi) };
  api.route(
    "/",
    threadRoutes(store, hub, logger, { ...(canReadRecord ? { canReadRecord } : {}), initialState: (agentId) => agents.get(agentId)?.state?.initial }),
  );
  api.route(
    "/",
    runRoutes(store, runner, hub, records, {
      ...(options.reportLimits ? { reportLimits: options.reportLimits } : {}),
      ...(options.recordPage ? { recordPage: options.recordPage } : {}),
      ...(canReadRecord ? { canReadRecord } : {}),
    }),
  );

  const onError = errorHandler(logger);
  const app = new Hono();
  app.onError(onError);
  app.notFound(notFoundHandler);
  app.get("/healthz", (c) => c.json({ ok: true }));
  app.route("/api", api);

  return {
    api,
    app,
    runner,
    hub,
    store,
    auth: authenticate,
    onError,
    notFound: notFoundHandler,
    async close() {
      await sweeper?.stop();
      await runner.drain();
      await hub.close();
      await store.close();
    },
  };
}

const RANDOM_SECRET_WARNING =
  "Several instances share this store and TETHER_SECRET is not set: this one signs with a random secret of its own, so the others refuse what it signs (approvals of stateless agents, the demo's sign-ins). Set the same TETHER_SECRET on every instance.";

const INSTANCE_LOST_MESSAGE =
  "This server lost its hold on the database while the run was in progress; the run was stopped so that no other server finishes it twice. What it had already done stands (the thread shows it): reload, then send your message again if you still need an answer.";

/** Who may read others' records: `canReadRecord`, or the deprecated `canReadAllRecords` in its terms. */
function recordReaders<User extends TetherUser>(options: TetherAppOptions<User>, logger: Logger): CanReadRecord | undefined {
  const { canReadRecord, canReadAllRecords } = options;
  if (canReadRecord && canReadAllRecords) throw new TetherError("config_invalid", "Give canReadRecord or the deprecated canReadAllRecords, not both.");
  if (canReadAllRecords) {
    logger.warn(
      "canReadAllRecords is deprecated: whoever it allows reads every user's records of the agent. Use canReadRecord, which is told whose record it is.",
    );
    return ((reader: User, record: RecordScope) => canReadAllRecords(reader, record.agentId)) as CanReadRecord;
  }
  return canReadRecord as CanReadRecord | undefined;
}

/**
 * The store when none is given: PostgreSQL when a database URL is set (several
 * instances), else SQLite in the data folder (one process). Each adapter is
 * loaded only when picked, so only its driver need be installed.
 */
async function defaultStore(options: Pick<TetherAppOptions, "databaseUrl" | "databaseSchema" | "dataDir">): Promise<RunStore> {
  const databaseUrl = options.databaseUrl ?? process.env.TETHER_DATABASE_URL;
  if (databaseUrl) {
    const { createPgRunStore } = await loadAdapter("pg");
    return createPgRunStore({ connectionString: databaseUrl, schema: options.databaseSchema ?? (process.env.TETHER_DATABASE_SCHEMA || "tether") });
  }
  const { createSqliteRunStore } = await loadAdapter("sqlite");
  return createSqliteRunStore({ filename: join(options.dataDir ?? process.env.TETHER_DATA_DIR ?? "./data", "tether.db") });
}

/** The fan-out: in this process, or across instances (the app's `hub`, or Redis when a URL is set). */
async function createHub(store: RunStore, options: Pick<TetherAppOptions, "hub" | "redisUrl">, logger: Logger): Promise<RunHub> {
  if (options.hub && options.redisUrl) throw new TetherError("config_invalid", "Give hub or redisUrl, not both: redisHub({ url }) takes the URL.");
  const local = createRunHub({ store, onPersistError: (error, runId) => logger.error(`Could not store events of run ${runId}; will retry.`, error) });
  if (options.hub) return options.hub({ local, store, logger });
  const redisUrl = options.redisUrl ?? process.env.TETHER_REDIS_URL;
  // Several instances on one database without a bus: cancels between them go through the store.
  if (!redisUrl) return withStoredCancels(local, store);
  // Loaded only here: a process without Redis never pays for the client.
  const { redisHub } = await loadAdapter("redis");
  return redisHub({ url: redisUrl })({ local, store, logger });
}
