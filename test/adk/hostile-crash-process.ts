/**
 * A Tether instance on SQLite serving an ADK agent whose `slow_write` tool notes each time it runs
 * (a line in TETHER_TEST_MARKER) and then hangs, so a test can SIGKILL the process mid-ADK-step.
 * Prints `listening <url>` once it serves. User "kim" signs in with the header `x-user: kim`.
 *
 * Environment: TETHER_TEST_DB (the SQLite file), TETHER_TEST_MARKER.
 */
import { appendFileSync } from "node:fs";
import { FunctionTool, LlmAgent, LogLevel, setLogLevel } from "@google/adk";
import { createScriptedLlm, defineAdkAgent } from "@tether-agent/tether/adk";
import { listen } from "@tether-agent/tether/node";
import { createTetherApp, silentLogger } from "@tether-agent/tether/server";
import { createSqliteRunStore } from "@tether-agent/tether/sqlite";
import { z } from "zod";

setLogLevel(LogLevel.ERROR);
const slowWrite = new FunctionTool({
  name: "slow_write",
  description: "Writes, slowly.",
  parameters: z.object({ text: z.string() }),
  execute: async ({ text }) => {
    appendFileSync(process.env.TETHER_TEST_MARKER!, `${text}\n`);
    await new Promise(() => undefined);
    return { written: text };
  },
});
const model = createScriptedLlm([{ text: "Writing it now. ", toolCalls: [{ toolName: "slow_write", input: { text: "hello" } }] }]);
const tether = await createTetherApp({
  agents: [defineAdkAgent({ id: "adk", agent: new LlmAgent({ name: "assistant", model, instruction: "Help.", tools: [slowWrite] }) })],
  authenticate: (request) => (request.headers.get("x-user") === "kim" ? { id: "kim" } : undefined),
  store: createSqliteRunStore({ filename: process.env.TETHER_TEST_DB! }),
  logger: silentLogger,
});
const server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
console.log(`listening ${server.url}`);
