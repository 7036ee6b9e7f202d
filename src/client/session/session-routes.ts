import { TetherError } from "../../protocol/index.ts";

/** Where a session finds what it needs. */
export interface SessionRouteOptions {
  api?: string;
  agentId?: string;
  runUrl?: string;
  eventsUrl?: string;
}

/** Tether's routes for a session, or only the run URL for a plain AG-UI server. */
export function sessionRoutes(options: SessionRouteOptions, threadId: string) {
  const api = options.api?.replace(/\/$/, "");
  const agentId = options.agentId && encodeURIComponent(options.agentId);
  const thread = api ? `${api}/threads/${encodeURIComponent(threadId)}` : undefined;
  const run = options.runUrl ?? (api && agentId ? `${api}/agents/${agentId}/run` : undefined);
  if (!run) throw new TetherError("config_invalid", "createAgentSession needs { api, agentId } for a Tether server, or { runUrl } for a plain AG-UI server.");
  return {
    api,
    run,
    events: options.eventsUrl ?? (thread ? `${thread}/events` : undefined),
    thread,
    capabilities: api && agentId ? `${api}/agents/${agentId}/capabilities` : undefined,
  };
}
