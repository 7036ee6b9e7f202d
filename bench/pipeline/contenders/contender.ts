import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import type { RunRequest } from "../client.ts";

/** One server under test. */
export interface Contender {
  name: string;
  /** What it is, for the report. */
  description: string;
  /** A fresh request for one run (new thread and run ids every time). */
  request(): RunRequest;
  close(): Promise<void>;
}

/** The port a listening server got, once it is listening. */
export async function listening(server: Server): Promise<number> {
  if (!server.listening) await new Promise<void>((resolve, reject) => server.once("listening", resolve).once("error", reject));
  return (server.address() as AddressInfo).port;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

let counter = 0;

/** A minimal, valid RunAgentInput with fresh ids. */
export function runInputBody(): { threadId: string; runId: string; body: string } {
  const n = ++counter;
  const threadId = `bench-thread-${process.pid}-${n}`;
  const runId = `bench-run-${process.pid}-${n}`;
  const body = JSON.stringify({
    threadId,
    runId,
    state: {},
    messages: [{ id: `bench-msg-${process.pid}-${n}`, role: "user", content: "Stream as many tokens as you can." }],
    tools: [],
    context: [],
    forwardedProps: {},
  });
  return { threadId, runId, body };
}
