import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { readSseFrames, SseFrame } from "@tether-agent/tether/testing";

const SCRIPT = fileURLToPath(new URL("./upstream-front-process.ts", import.meta.url));

/** Kim signs in to the instances these tests start with this header. */
export const KIM_HEADERS = { "Content-Type": "application/json", "x-user": "kim" };

export interface UpstreamFront {
  url: string;
  /** Sends the signal and waits until the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts upstream-front-process.ts (agent `front` in front of an upstream) in a
 * process of its own, with `env` saying where its upstream and its store are;
 * resolves once it serves, rejects with what it printed if it exits first.
 */
export function startUpstreamFront(env: Record<string, string>): Promise<UpstreamFront> {
  const child = spawn(process.execPath, ["--conditions=tether-source", "--import", "tsx", SCRIPT], {
    // The store is the one `env` names: never a database the test run itself was pointed at.
    env: { ...process.env, TETHER_TEST_DATABASE_URL: "", TETHER_TEST_SCHEMA: "", TETHER_TEST_REDIS_URL: "", TETHER_DATA_DIR: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /listening (http:\/\/\S+)/.exec(output);
      if (!match) return;
      resolve({
        url: match[1]!,
        async stop(signal = "SIGTERM") {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    });
    child.once("exit", (code) => reject(new Error(`The instance exited with ${code} before it served:\n${output}`)));
  });
}

/** A run's first events while its upstream is mid-stream: the run has started and the upstream's words are coming. */
export const UPSTREAM_MID_STREAM = ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT"];

/** Kim's turn of a thread, as the body of a run request. */
export const runBody = (threadId: string, runId: string, text: string) =>
  JSON.stringify({ threadId, runId, messages: [{ id: `${runId}-u1`, role: "user", content: text }], tools: [], context: [], state: {}, forwardedProps: {} });

/** What a client of a killed instance holds: the frames that reached it before the connection went. */
export function framesUntilKilled(stream: ReturnType<typeof readSseFrames>): Promise<SseFrame[]> {
  return stream.all().catch(() => stream.seen);
}
