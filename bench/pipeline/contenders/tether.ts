import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createTetherApp, defineAgent, silentLogger } from "@tether-agent/tether/server";
import type { RunStore } from "@tether-agent/tether/store";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { createStubModel } from "../stub-model.ts";
import { closeServer, listening, runInputBody, type Contender } from "./contender.ts";

export interface TetherContender extends Contender {
  store: RunStore;
  /** Run ids of every request made, in order. */
  runIds: string[];
  /** The SQLite file holding the event log. */
  filename: string;
}

const AGENT_ID = "bench";

/**
 * The full server: createTetherApp with a real SQLite store in WAL mode (the
 * event log on), an agent on the stub model, request validation, auth, the
 * run loop's conversion, the hub and the SSE encoder, served by
 * @hono/node-server on an ephemeral loopback port.
 */
export interface TetherOptions {
  /** See createStubModel. */
  yieldEvery?: number;
  /** For diagnostics: what the app sees instead of the store (timing, or no event log). */
  wrapStore?: (store: RunStore) => RunStore;
}

export async function startTether(deltas: number, options: TetherOptions = {}): Promise<TetherContender> {
  const dir = mkdtempSync(join(tmpdir(), "tether-bench-"));
  const filename = join(dir, "tether.db");
  const store = createSqliteRunStore({ filename });
  const agent = defineAgent({ id: AGENT_ID, model: createStubModel(deltas, { yieldEvery: options.yieldEvery ?? 0 }), instructions: "You are a benchmark." });
  const tether = await createTetherApp({
    agents: [agent],
    store: options.wrapStore ? options.wrapStore(store) : store,
    logger: silentLogger,
    authenticate: () => ({ id: "bench-user" }),
  });
  const server = serve({ fetch: tether.app.fetch, hostname: "127.0.0.1", port: 0 }) as Server;
  const url = `http://127.0.0.1:${await listening(server)}/api/agents/${AGENT_ID}/run`;
  const runIds: string[] = [];

  return {
    name: "tether",
    description: "createTetherApp + SQLite event log (WAL) + @hono/node-server",
    store,
    runIds,
    filename,
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
