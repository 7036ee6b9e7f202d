/**
 * A Tether instance on PostgreSQL alone whose runs take several steps and
 * stream slowly: each run looks something up three times (a stored step
 * each, one transaction) and then answers in words, a few parts at a time.
 * Prints `listening <url>` once it serves. User "kim" signs in with the
 * header `x-user: kim`. Logs go to stderr, for the test to show on failure.
 *
 * Environment: TETHER_TEST_DATABASE_URL (its `application_name` names this
 * process's connections), TETHER_TEST_SCHEMA.
 */
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { z } from "zod";
import { createTetherApp, defineAgent, defineTool, type Logger } from "@tether-agent/tether/server";
import { createScriptedModel } from "@tether-agent/tether/testing";
import { listen } from "@tether-agent/tether/node";

const LOOKUPS = 3;
const ANSWER = Array.from({ length: 40 }, (_, index) => `part${index} `).join("");

const lookUp = defineTool({
  name: "look_up",
  description: "Looks a thing up.",
  parameters: z.object({ round: z.number() }),
  execute: ({ round }) => ({ round, found: true }),
});
const step = (call: LanguageModelV3CallOptions) => {
  const lookups = call.prompt.filter((message) => message.role === "tool").length;
  return lookups < LOOKUPS ? { toolCalls: [{ toolName: "look_up", input: { round: lookups } }] } : { text: ANSWER };
};

const logger: Logger = {
  info: () => undefined,
  warn: (message) => console.error(`warn: ${message}`),
  error: (message, error) => console.error(`error: ${message} ${String(error)}`),
};
const tether = await createTetherApp({
  agents: [
    defineAgent({
      id: "test",
      model: createScriptedModel(
        Array.from({ length: 100_000 }, () => step),
        { chunkDelayMs: 15 },
      ),
      tools: [lookUp],
      browserTools: [],
    }),
  ],
  authenticate: (request) => (request.headers.get("x-user") === "kim" ? { id: "kim" } : undefined),
  databaseUrl: process.env.TETHER_TEST_DATABASE_URL!,
  databaseSchema: process.env.TETHER_TEST_SCHEMA!,
  secret: "test-secret",
  logger,
});
const server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
console.log(`listening ${server.url}`);
