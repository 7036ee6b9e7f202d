import { serve, type ServerType } from "@hono/node-server";

export interface Listening {
  url: string;
  server: ServerType;
  close(): Promise<void>;
}

/** Serves a fetch handler on Node and resolves once it is listening. Port 0 picks a free port. */
export function listen(app: { fetch: (request: Request) => Response | Promise<Response> }, options: { port: number; host: string }): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port, hostname: options.host }, (info) => {
      const host = info.address.includes(":") ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            // Streams of running runs would hold the server open; they are closed, the runs are not.
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
    server.once("error", reject);
  });
}
