import { createServer } from "node:http";
import { closeServer, listening, runInputBody, type Contender } from "./contender.ts";

/**
 * The floor: a plain node:http server that reads the request body, then
 * writes the same SSE bytes Tether produced (captured from a warm-up run,
 * `id:` lines included), pre-encoded as one Buffer per frame, with one
 * `res.write` per frame and honouring backpressure, as a hand-written SSE
 * endpoint would. No parsing, no conversion, no store.
 */
export async function startBare(frames: Buffer[]): Promise<Contender> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no" });
      let next = 0;
      const writeMore = () => {
        while (next < frames.length) {
          if (!res.write(frames[next++])) {
            res.once("drain", writeMore);
            return;
          }
        }
        res.end();
      };
      writeMore();
    });
  });
  server.listen(0, "127.0.0.1");
  const url = `http://127.0.0.1:${await listening(server)}/run`;
  return {
    name: "bare",
    description: `node:http, ${frames.length} pre-encoded frames, one res.write each`,
    request: () => ({ url, body: runInputBody().body }),
    close: () => closeServer(server),
  };
}
