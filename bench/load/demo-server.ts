/**
 * The demo server (`createDemo`, as `npm start` builds it: SQLite in
 * TETHER_DATA_DIR, demo sign-in, the Workdesk and Recipes agents) as the
 * process `bench/load` measures. The model comes from TETHER_MODEL,
 * OPENAI_BASE_URL and OPENAI_API_KEY, as with `npm start`. Prints
 * `listening <url>` once it serves. Unlike `npm start` it logs nothing per
 * request and builds no web pages: neither is what is measured.
 */
import { isTetherError } from "tether/protocol";
import { silentLogger } from "tether/server";
import { createDemo } from "../../apps/serve.ts";
import { listen } from "../../src/server/listen.ts";

try {
  const demo = await createDemo({
    dataDir: process.env.TETHER_DATA_DIR!,
    logger: silentLogger,
    env: { TETHER_MODEL: process.env.TETHER_MODEL, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, OPENAI_API_KEY: process.env.OPENAI_API_KEY },
  });
  const server = await listen(demo.app, { port: 0, host: "127.0.0.1" });
  console.log(`listening ${server.url} (${demo.describe().join("; ")})`);
  process.once("SIGTERM", () => {
    void server
      .close()
      .then(() => demo.close())
      .finally(() => process.exit(0));
  });
} catch (error) {
  console.error(isTetherError(error) ? `${error.code}: ${error.message}` : error);
  process.exit(1);
}
