import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One request Tether made of the endless upstream. */
export interface EndlessRequest {
  /** The RunAgentInput it was sent. */
  body: { threadId?: string; runId?: string; messages?: Array<{ role: string; content?: unknown }> };
  /** Resolves when Tether closed the request (its connection ended before the answer did, which is never). */
  closed: Promise<void>;
  /** Whether the request has been closed by Tether. */
  isClosed(): boolean;
}

export interface EndlessUpstream {
  /** Where it takes `POST RunAgentInput`. */
  url: string;
  requests: EndlessRequest[];
  /** Resolves with the next request once its body has arrived (the nth, counting from 0). */
  request(index: number): Promise<EndlessRequest>;
  close(): Promise<void>;
}

const frame = (event: object) => `data: ${JSON.stringify(event)}\n\n`;

/**
 * An AG-UI agent that starts its answer and never finishes it: RUN_STARTED, a
 * text message, then a word every `everyMs` for as long as the request is
 * open. What it records is whether Tether closed the request: for tests that
 * stop the run in front of it (a killed instance, a lost lease) and need the
 * upstream to see its request end. A request whose last user message is
 * "hello" gets a short, finished run instead, for the thread's next turn.
 */
export async function startEndlessUpstream(options: { everyMs?: number } = {}): Promise<EndlessUpstream> {
  const requests: EndlessRequest[] = [];
  const waiters = new Map<number, (request: EndlessRequest) => void>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as EndlessRequest["body"];
      let closed = false;
      let timer: NodeJS.Timeout | undefined;
      let markClosed!: () => void;
      const request: EndlessRequest = { body, closed: new Promise((resolve) => (markClosed = resolve)), isClosed: () => closed };
      // The response's close before its end is the caller hanging up: the socket went, or the request was aborted.
      response.on("close", () => {
        closed = true;
        clearInterval(timer);
        markClosed();
      });
      const index = requests.push(request) - 1;
      waiters.get(index)?.(request);
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const { threadId, runId } = body;
      response.write(frame({ type: "RUN_STARTED", threadId, runId }));
      response.write(frame({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" }));
      const said = body.messages?.filter((message) => message.role === "user").at(-1)?.content;
      if (said === "hello") {
        response.write(frame({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello again." }));
        response.write(frame({ type: "TEXT_MESSAGE_END", messageId: "m1" }));
        response.end(frame({ type: "RUN_FINISHED", threadId, runId }));
        return;
      }
      let word = 0;
      timer = setInterval(() => {
        if (!response.destroyed) response.write(frame({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: `word${word++} ` }));
      }, options.everyMs ?? 50);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`,
    requests,
    request: (index) => (requests[index] ? Promise.resolve(requests[index]) : new Promise((resolve) => waiters.set(index, resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
