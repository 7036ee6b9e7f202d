import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { TetherAppOptions } from "@tether-agent/tether/server";
import { STUB_TOOL } from "../tool-stub-model.ts";
import { closeServer, listening, runInputBody, type Contender } from "./contender.ts";

/** What a variant needs of a Tether build: the current one (`@tether-agent/tether/server`) or an older one loaded from git. */
export interface ServerBuild {
  createSqliteRunStore: typeof import("@tether-agent/tether/sqlite").createSqliteRunStore;
  createTetherApp: typeof import("@tether-agent/tether/server").createTetherApp;
  defineAgent: typeof import("@tether-agent/tether/server").defineAgent;
  defineTool: typeof import("@tether-agent/tether/server").defineTool;
  silentLogger: typeof import("@tether-agent/tether/server").silentLogger;
}

export interface VariantContender extends Contender {
  store: ReturnType<ServerBuild["createSqliteRunStore"]>;
  runIds: string[];
}

const AGENT_ID = "bench-tools";

/**
 * The full server (createTetherApp, SQLite in WAL mode, @hono/node-server on
 * loopback) with one agent on the tool-calling stub and its `lookup` server
 * tool, built from `build` with `options` on top: records on or off,
 * telemetry on or off.
 */
export async function startTetherVariant(
  name: string,
  description: string,
  build: ServerBuild,
  model: LanguageModelV3,
  options: Pick<TetherAppOptions, "records" | "telemetry"> = {},
): Promise<VariantContender> {
  const dir = mkdtempSync(join(tmpdir(), "tether-bench-cost-"));
  const store = build.createSqliteRunStore({ filename: join(dir, "tether.db") });
  const lookup = build.defineTool({
    name: STUB_TOOL,
    description: "Looks a work request up.",
    parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
    execute: (args: { id: string }) => ({ id: args.id, status: "open", title: `Work request ${args.id}` }),
  });
  const agent = build.defineAgent({ id: AGENT_ID, model, tools: [lookup], instructions: "You are a benchmark." });
  const tether = await build.createTetherApp({ agents: [agent], store, logger: build.silentLogger, authenticate: () => ({ id: "bench-user" }), ...options });
  const server = serve({ fetch: tether.app.fetch, hostname: "127.0.0.1", port: 0 }) as Server;
  const url = `http://127.0.0.1:${await listening(server)}/api/agents/${AGENT_ID}/run`;
  const runIds: string[] = [];
  return {
    name,
    description,
    store,
    runIds,
    request() {
      const { runId, body } = runInputBody();
      runIds.push(runId);
      return { url, body, headers: { authorization: "Bearer bench" } };
    },
    async close() {
      await closeServer(server);
      await tether.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
