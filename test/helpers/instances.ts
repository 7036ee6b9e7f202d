import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { RunAgentInput } from "@ag-ui/core";
import { createCountingIds } from "@tether-agent/tether/testing";
import { createTetherApp, defineAgent, silentLogger, type Logger, type ServerTool, type TetherApp } from "@tether-agent/tether/server";
import type { RunStore } from "@tether-agent/tether/store";
import { createPgRunStore } from "@tether-agent/tether/pg";
import type { TestUser } from "../fixtures/messages.ts";
import { heldModel } from "./held-model.ts";
import { reachablePostgres, serverSchemas } from "./postgres.ts";
import { reachableRedis } from "./redis.ts";

export const KIM: TestUser = { id: "kim", orgScope: "ORG-01", roles: ["requester"] };

/** One Tether instance of a load-balanced deployment, in this process; `hold` pauses its model until released. */
export interface Instance {
  tether: TetherApp<TestUser>;
  store: RunStore;
  hold(): () => void;
}

/**
 * The PostgreSQL server and Redis that tests of several instances share, or
 * why they are skipped (printed, with what would have run).
 */
export async function sharedServices(what: string) {
  const redis = await reachableRedis();
  const postgres = await reachablePostgres();
  const skipped = "skipped" in redis ? redis.skipped : "skipped" in postgres ? postgres.skipped : undefined;
  if (skipped) console.info(`${what}: skipped. ${skipped}`);
  const schemas = "url" in postgres ? serverSchemas(postgres.url) : undefined;
  return { skipped, schemas, databaseUrl: "url" in postgres ? postgres.url : "", redisUrl: "url" in redis ? redis.url : "" };
}

/**
 * Starts an instance on the shared schema and Redis, with agent `test`. Each
 * instance gets its own id prefix, as random ids would differ: they share one store.
 */
export async function startInstance(options: {
  databaseUrl: string;
  redisUrl: string;
  schema: string;
  name: string;
  model: LanguageModelV3;
  tools?: ServerTool[];
  /** The store's instance id, for a test that finds the instance's liveness lock; default random. */
  instanceId?: string;
  logger?: Logger;
}): Promise<Instance> {
  const store = await createPgRunStore({ connectionString: options.databaseUrl, schema: options.schema, instanceId: options.instanceId });
  const { model, hold } = heldModel(options.model);
  const tether = await createTetherApp<TestUser>({
    agents: [defineAgent({ id: "test", model, tools: options.tools ?? [], browserTools: [] })],
    authenticate: (request) => (request.headers.get("x-user") === "kim" ? KIM : undefined),
    store,
    redisUrl: options.redisUrl,
    logger: options.logger ?? silentLogger,
    ids: createCountingIds(`${options.name}_`),
  });
  return { tether, store, hold };
}

/** Kim starts a run on the instance, asking "tell me". */
export const postRun = (instance: Instance, input: Pick<RunAgentInput, "threadId" | "runId">) =>
  instance.tether.app.request("/api/agents/test/run", {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-user": "kim" },
    body: JSON.stringify({ messages: [{ id: `${input.runId}-u1`, role: "user", content: "tell me" }], tools: [], context: [], ...input }),
  });

/** Kim attaches to the thread's run through the instance, from an event id when given. */
export const attachTo = (instance: Instance, threadId: string, lastEventId?: string) =>
  instance.tether.app.request(`/api/threads/${threadId}/events`, {
    headers: { "x-user": "kim", ...(lastEventId ? { "Last-Event-ID": lastEventId } : {}) },
  });
