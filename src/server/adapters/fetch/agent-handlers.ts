import { TetherError } from "../../../protocol/index.ts";
import type { Agent } from "../../agent/index.ts";
import { createTetherApp, type TetherAppOptions } from "../../app.ts";

export interface AgentHandlersOptions extends Omit<TetherAppOptions, "agents"> {
  agent: Agent;
}

/** One agent's endpoints as plain `(Request) → Response` functions, for any fetch-style server. */
export interface AgentHandlers {
  /** A `POST` with a `RunAgentInput` body: the run's AG-UI events (SSE, or protobuf when `Accept` asks). */
  run(request: Request): Promise<Response>;
  /** A `GET` with `?threadId=`: attaches to the thread's runs; `Last-Event-ID` resumes after that event. */
  connect(request: Request): Promise<Response>;
  /** A `GET`: the agent's AG-UI capabilities, with the browser-tool allow-list. */
  capabilities(request: Request): Promise<Response>;
  /** Waits for running runs to end, then closes the store. */
  close(): Promise<void>;
}

/**
 * Mounts one agent anywhere: each handler takes a standard Request and gives
 * a standard Response, with every check `createTetherApp` makes (who is
 * asking, JSON bodies, same-origin cookies, body limits, errors as
 * `{ error: { code, message } }`), on the same store and fan-out.
 *
 * @example
 * const chat = await createAgentHandlers({ agent, authenticate });
 * app.post("/chat", (c) => chat.run(c.req.raw));              // Hono
 * export const POST = (request: Request) => chat.run(request); // Next.js route handler
 */
export async function createAgentHandlers(options: AgentHandlersOptions): Promise<AgentHandlers> {
  const { agent, ...rest } = options;
  const tether = await createTetherApp({ ...rest, agents: [agent] });
  // The runtime's own routes answer, at the request's own origin, so same-origin checks see the real host.
  // The query goes along: `?compat=ag-ui-0.0` is the client's to choose.
  const forward = async (request: Request, path: string): Promise<Response> =>
    tether.api.fetch(
      new Request(new URL(`${path}${new URL(request.url).search}`, request.url), {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: request.signal,
        duplex: "half",
      } as RequestInit),
    );
  const agentPath = `/agents/${encodeURIComponent(agent.id)}`;
  return {
    run: (request) => forward(request, `${agentPath}/run`),
    capabilities: (request) => forward(request, `${agentPath}/capabilities`),
    connect: async (request) => {
      const threadId = new URL(request.url).searchParams.get("threadId");
      if (!threadId)
        return Response.json(new TetherError("invalid_input", "Name the thread to attach to: add ?threadId=<id> to the URL.").toJSON(), { status: 400 });
      return forward(request, `/threads/${encodeURIComponent(threadId)}/events`);
    },
    close: () => tether.close(),
  };
}
