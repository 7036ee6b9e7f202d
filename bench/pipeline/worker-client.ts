import { Worker } from "node:worker_threads";
import type { RunRequest, RunResult } from "./client.ts";

export interface WorkerClient {
  run(request: RunRequest): Promise<RunResult>;
  close(): Promise<void>;
}

/**
 * Starts the client thread. A worker does not inherit tsx's loader hooks on
 * Node 20, so its entry registers them before importing the TypeScript file.
 */
export async function startWorkerClient(): Promise<WorkerClient> {
  const entry = new URL("./client-worker.ts", import.meta.url).href;
  const tsxApi = import.meta.resolve("tsx/esm/api");
  const source = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })
    .then(() => require("node:worker_threads").parentPort.postMessage({ ready: true }));`;
  const worker = new Worker(source, { eval: true });
  const waiting = new Map<number, { resolve: (result: RunResult) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failed: Error | undefined;

  await new Promise<void>((resolve, reject) => {
    const onReady = (message: { ready?: boolean }) => {
      if (!message.ready) return;
      worker.off("message", onReady);
      worker.off("error", reject);
      resolve();
    };
    worker.on("message", onReady);
    worker.once("error", reject);
  });
  worker.on("message", (message: { id: number; result?: RunResult; error?: string }) => {
    const entry = waiting.get(message.id);
    if (!entry) return;
    waiting.delete(message.id);
    if (message.error !== undefined) entry.reject(new Error(message.error));
    else entry.resolve(message.result!);
  });
  worker.on("error", (error) => {
    failed = error;
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  });

  return {
    run(request) {
      if (failed) return Promise.reject(failed);
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ id, request });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}
