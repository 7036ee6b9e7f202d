import { isTetherError } from "@tether-agent/tether/protocol";
import { createDemo, type Demo, type DemoOptions } from "../../apps/serve.ts";
import { listen } from "@tether-agent/tether/node";

/**
 * Runs the demo server as this process, for tests and benchmarks that start
 * it as a process of its own: serves on 127.0.0.1 (`port`, default any free
 * one), prints one line, `listening <url>`, once it serves (with what
 * `onServing` adds), closes on SIGTERM, and exits 1 with the error when it
 * cannot start.
 */
export async function serveDemoProcess(options: DemoOptions & { port?: number }, onServing?: (demo: Demo) => string | void): Promise<void> {
  try {
    const { port = 0, ...demoOptions } = options;
    const demo = await createDemo(demoOptions);
    const server = await listen(demo.app, { port, host: "127.0.0.1" });
    const more = onServing?.(demo);
    console.log(`listening ${server.url}${more ? ` (${more})` : ""}`);
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
}
