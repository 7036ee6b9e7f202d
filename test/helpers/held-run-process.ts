/**
 * A Tether instance on PostgreSQL and Redis whose model stops for good after
 * a few stream parts, for tests that kill an instance mid-run. Prints
 * `listening <url>` once it serves; a run posted to it stays running until
 * the process dies. User "kim" signs in with the header `x-user: kim`.
 *
 * Environment: TETHER_TEST_DATABASE_URL, TETHER_TEST_SCHEMA, TETHER_TEST_REDIS_URL.
 */
import type { LanguageModelV3, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { createTetherApp, defineAgent, silentLogger } from "@tether-agent/tether/server";
import { createScriptedModel } from "@tether-agent/tether/testing";
import { listen } from "@tether-agent/tether/node";

/** Stream parts that go out before the model stops: enough for RUN_STARTED and some text. */
const PARTS_BEFORE_HOLD = 20;

const scripted = createScriptedModel([{ text: Array.from({ length: 100 }, (_, index) => `word${index}, `).join("") }]);
const model: LanguageModelV3 = {
  ...scripted,
  async doStream(call) {
    const result = await scripted.doStream(call);
    let count = 0;
    return {
      ...result,
      stream: result.stream.pipeThrough(
        new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
          async transform(part, controller) {
            if (++count === PARTS_BEFORE_HOLD) await new Promise(() => undefined);
            controller.enqueue(part);
          },
        }),
      ),
    };
  },
};

const tether = await createTetherApp({
  agents: [defineAgent({ id: "test", model, tools: [], browserTools: [] })],
  authenticate: (request) => (request.headers.get("x-user") === "kim" ? { id: "kim" } : undefined),
  databaseUrl: process.env.TETHER_TEST_DATABASE_URL!,
  databaseSchema: process.env.TETHER_TEST_SCHEMA!,
  redisUrl: process.env.TETHER_TEST_REDIS_URL!,
  logger: silentLogger,
});
const server = await listen(tether.app, { port: 0, host: "127.0.0.1" });
console.log(`listening ${server.url}`);
