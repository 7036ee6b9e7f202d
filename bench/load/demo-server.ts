/**
 * The demo server (`createDemo`, as `npm start` builds it: SQLite in
 * TETHER_DATA_DIR, demo sign-in, the Workdesk and Recipes agents) as the
 * process `bench/load` measures. The model comes from TETHER_MODEL,
 * OPENAI_BASE_URL and OPENAI_API_KEY, as with `npm start`. Prints
 * `listening <url>` once it serves. Unlike `npm start` it logs nothing per
 * request and builds no web pages: neither is what is measured.
 */
import { silentLogger } from "@tether-agent/tether/server";
import { serveDemoProcess } from "../../test/helpers/serve-demo-process.ts";

await serveDemoProcess(
  {
    dataDir: process.env.TETHER_DATA_DIR!,
    logger: silentLogger,
    env: { TETHER_MODEL: process.env.TETHER_MODEL, OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, OPENAI_API_KEY: process.env.OPENAI_API_KEY },
  },
  (demo) => demo.describe().join("; "),
);
