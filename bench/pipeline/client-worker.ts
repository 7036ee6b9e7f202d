import { parentPort } from "node:worker_threads";
import { runOnce, type RunRequest } from "./client.ts";

/**
 * The benchmark's client, on its own thread: the servers under test keep the
 * main thread's event loop to themselves, as they would with a remote client.
 */
parentPort!.on("message", (message: { id: number; request: RunRequest }) => void answer(message));

async function answer(message: { id: number; request: RunRequest }) {
  try {
    parentPort!.postMessage({ id: message.id, result: await runOnce(message.request) });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}
