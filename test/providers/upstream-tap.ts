import { createServer, request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One model call as it passed through the tap. */
export interface TappedExchange {
  method: string;
  /** Path and query, as the provider SDK sent them (`/v1/messages`, `/v1beta/models/…:streamGenerateContent?alt=sse`). */
  path: string;
  /** The request body exactly as the provider SDK wrote it. */
  body: string;
  /** The upstream's status, once it answered. */
  status?: number;
  /** SSE frames passed on to the caller. */
  framesForwarded: number;
  /** The caller received the whole answer. */
  completed: boolean;
  /** The caller closed its connection before the answer was complete: it aborted the call. */
  abortedByCaller: boolean;
  /** Resolves when the exchange has ended, completed or not. */
  ended: Promise<void>;
}

/** Pass the first `afterFrames` SSE frames on, then send `frame` instead of the rest and end the response. */
export interface StreamCut {
  afterFrames: number;
  frame: string;
}

export interface UpstreamTap {
  /** Where to point a provider's base URL instead of the upstream. */
  url: string;
  exchanges: TappedExchange[];
  /** The next exchange's SSE answer is cut and ends with a frame of the test's choosing. */
  cutNextStream(cut: StreamCut): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length"]);

/**
 * A small HTTP proxy in front of aimock that records, for every model call,
 * whether the caller hung up before the answer was complete. aimock's own
 * journal does not say that for a fixture's stream (it keeps writing into a
 * closed socket), and whether Tether closed the upstream request is what the
 * abort tests are about. It can also cut a stream and end it with a frame of
 * the test's choosing (a provider's mid-stream error event), which aimock's
 * fixtures cannot express: they can only drop the connection.
 */
export async function startUpstreamTap(upstream: string): Promise<UpstreamTap> {
  const target = new URL(upstream);
  const exchanges: TappedExchange[] = [];
  let nextCut: StreamCut | undefined;

  const server = createServer((incoming, response) => {
    let markEnded!: () => void;
    const exchange: TappedExchange = {
      method: incoming.method ?? "GET",
      path: incoming.url ?? "/",
      body: "",
      framesForwarded: 0,
      completed: false,
      abortedByCaller: false,
      ended: new Promise((resolve) => (markEnded = resolve)),
    };
    exchanges.push(exchange);
    const cut = nextCut;
    nextCut = undefined;

    const requestChunks: Buffer[] = [];
    const outgoing = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        exchange.status = answer.statusCode ?? 0;
        response.writeHead(exchange.status, passOn(answer.headers));
        // The caller's SDK opens its stream on the headers; send them now, as the upstream did.
        response.flushHeaders();
        let pending = "";
        answer.setEncoding("utf8");
        answer.on("data", (text: string) => {
          if (response.writableEnded) return;
          pending += text;
          // Forward whole frames only, so a count of frames means what it says.
          let boundary: number;
          while ((boundary = pending.indexOf("\n\n")) !== -1) {
            const frame = pending.slice(0, boundary + 2);
            pending = pending.slice(boundary + 2);
            if (cut && exchange.framesForwarded === cut.afterFrames) {
              response.end(cut.frame, () => {
                exchange.completed = true;
                markEnded();
              });
              outgoing.destroy();
              return;
            }
            response.write(frame);
            exchange.framesForwarded++;
          }
        });
        answer.on("end", () => {
          if (response.writableEnded) return;
          response.end(pending, () => {
            exchange.completed = true;
            markEnded();
          });
        });
        // The upstream dropped the connection mid-answer: pass on what arrived, then drop the caller's too.
        answer.on("close", () => {
          if (answer.complete || response.writableEnded || response.destroyed) return;
          response.write(pending, () => response.destroy());
        });
        answer.on("error", () => {});
      },
    );
    outgoing.on("error", () => response.destroy());
    incoming.on("data", (chunk: Buffer) => requestChunks.push(chunk));
    incoming.on("end", () => (exchange.body = Buffer.concat(requestChunks).toString("utf8")));
    incoming.pipe(outgoing);
    response.on("close", () => {
      if (!response.writableFinished) {
        // The caller went away mid-answer; hang up on the upstream too, as a real gateway would.
        exchange.abortedByCaller = true;
        outgoing.destroy();
      }
      markEnded();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    cutNextStream: (cut) => {
      nextCut = cut;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function passOn(headers: IncomingHttpHeaders): Parameters<ServerResponse["writeHead"]>[1] {
  return Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && !HOP_BY_HOP.has(name))) as Record<
    string,
    string | string[]
  >;
}
