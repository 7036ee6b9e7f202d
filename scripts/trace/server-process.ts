/**
 * The server half of the trace, in a process of its own so its coverage is the
 * server's only: the demo app (apps/serve.ts) with the offline playbook, on a
 * free loopback port. The parent says when the request begins and ends (IPC);
 * it answers with the files the server executed in between.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startCoverage } from "./coverage.ts";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const coverage = await startCoverage(root);

const { serve } = await import("@hono/node-server");
const { silentLogger } = await import("@tether-agent/tether/server");
const { createDemo } = await import("../../apps/serve.ts");

const dataDir = mkdtempSync(join(tmpdir(), "tether-trace-"));
const demo = await createDemo({ dataDir, secret: "trace-secret", logger: silentLogger, playbook: { chunkDelayMs: 0 }, env: {} });
const server = serve({ fetch: demo.app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise((listening) => server.once("listening", listening));
const { port } = server.address() as { port: number };

process.on("message", (message: { type: string }) => {
  void (async () => {
    if (message.type === "begin") {
      await coverage.take();
      process.send!({ type: "begun" });
    } else if (message.type === "end") {
      process.send!({ type: "files", files: await coverage.take() });
    } else if (message.type === "close") {
      server.close();
      await demo.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.disconnect();
    }
  })();
});
process.send!({ type: "ready", url: `http://127.0.0.1:${port}`, token: demo.identity.issueToken("kim") });
