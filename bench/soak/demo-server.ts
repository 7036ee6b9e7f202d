/**
 * The demo server (`createDemo`: SQLite in TETHER_DATA_DIR, demo sign-in) on
 * its offline playbook model, as the process `bench/soak` watches. The
 * playbook pauses BENCH_SOAK_CHUNK_DELAY_MS between stream parts, so a client
 * can act mid-run. Prints `listening <url>` once it serves; answers the
 * message "memory" on its IPC channel with `process.memoryUsage()` and the
 * heap in use right after the last full (mark-sweep) collection, so the heap
 * is read without an endpoint in the product or `--expose-gc`.
 */
import { PerformanceObserver, constants } from "node:perf_hooks";
import { silentLogger } from "@tether-agent/tether/server";
import { serveDemoProcess } from "../../test/helpers/serve-demo-process.ts";

await serveDemoProcess(
  {
    dataDir: process.env.TETHER_DATA_DIR!,
    logger: silentLogger,
    env: {},
    playbook: { chunkDelayMs: Number(process.env.BENCH_SOAK_CHUNK_DELAY_MS ?? 5) },
  },
  () => {
    // What survives a full collection is what the process holds on to; heapUsed between collections also counts garbage.
    let afterFullGc = { heapUsed: Number.NaN, collections: 0 };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if ((entry as { detail?: { kind?: number } }).detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
        afterFullGc = { heapUsed: process.memoryUsage().heapUsed, collections: afterFullGc.collections + 1 };
      }
    }).observe({ entryTypes: ["gc"] });
    process.on("message", (message) => {
      if (message === "memory") process.send!({ memory: process.memoryUsage(), afterFullGc });
    });
  },
);
