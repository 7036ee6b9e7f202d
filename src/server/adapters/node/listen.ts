import { serve, type ServerType } from "@hono/node-server";

export interface Listening {
  url: string;
  server: ServerType;
  close(): Promise<void>;
}

export interface ListenOptions {
  port: number;
  host: string;
  /**
   * The host names requests may name in their `Host` header. Default: on a loopback address
   * (127.0.0.1, ::1, localhost) only loopback names, so a web page whose own name an attacker
   * points at 127.0.0.1 (DNS rebinding) cannot use a server meant for this machine; on any other
   * address, any name. Behind a proxy that keeps the public name (nginx's `Host $http_host`), list it.
   */
  allowedHosts?: readonly string[] | "any";
}

type FetchHandler = (request: Request, ...rest: any[]) => Response | Promise<Response>;

/** Serves a fetch handler on Node and resolves once it is listening. Port 0 picks a free port. */
export function listen(app: { fetch: FetchHandler }, options: ListenOptions): Promise<Listening> {
  const allowed = options.allowedHosts ?? (isLoopback(options.host) ? "loopback" : "any");
  const fetch: FetchHandler =
    allowed === "any" ? app.fetch : (request, ...rest) => (hostAllowed(request, allowed) ? app.fetch(request, ...rest) : refuseHost(request, options.host));
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port: options.port, hostname: options.host }, (info) => {
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

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.has(name) || name.startsWith("127.") || name.endsWith(".localhost");
}

function hostAllowed(request: Request, allowed: "loopback" | readonly string[]): boolean {
  const name = new URL(request.url).hostname.toLowerCase();
  return allowed === "loopback" ? isLoopback(name) : allowed.some((host) => host.toLowerCase() === name);
}

function refuseHost(request: Request, boundTo: string): Response {
  const name = new URL(request.url).hostname;
  const message = `Refused a request for the host "${name}": this server listens on ${boundTo} and answers only for the names it was given (a web page reaching it under another name is a DNS rebinding attack). Behind a proxy that keeps its public name, give listen() allowedHosts (the demo: TETHER_ALLOWED_HOSTS).`;
  return Response.json({ error: { code: "forbidden", message } }, { status: 403 });
}
