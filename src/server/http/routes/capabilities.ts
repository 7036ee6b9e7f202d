import type { AgentCapabilities } from "@ag-ui/core";
import { Hono } from "hono";
import { toAgUiTool } from "../../../protocol/index.ts";
import { type Agent, findAgentFor } from "../../agent/index.ts";
import type { AuthEnv } from "../middleware/auth.ts";

/**
 * `GET /agents/:agentId/capabilities`: AG-UI `AgentCapabilities`. `tools.items`
 * are the server tools this user may see; `custom.browserTools` is the
 * allow-list a frontend's declarations are checked against, with schemas;
 * `custom.welcome` the greeting and suggestions the agent offers this user.
 */
export function capabilityRoutes(agents: Map<string, Agent>) {
  return new Hono<AuthEnv>().get("/agents/:agentId/capabilities", (c) => {
    const user = c.var.user;
    const agent = findAgentFor(agents, c.req.param("agentId"), user);
    const welcome = agent.welcome(user);
    const capabilities: AgentCapabilities = {
      identity: { name: agent.id, type: "tether", description: agent.description, provider: agent.engine.provider },
      transport: { streaming: true, httpBinary: true, resumable: true },
      tools: {
        supported: true,
        parallelCalls: true,
        clientProvided: true,
        items: agent.tools
          .filter((tool) => !tool.visibleTo || tool.visibleTo(user))
          .map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })),
      },
      // A run opens with a snapshot when its thread has state, and streams each change as a delta; server history keeps it between runs.
      state: { snapshots: true, deltas: true, persistentState: agent.history === "server" },
      execution: { maxIterations: agent.maxSteps },
      custom: {
        browserTools: agent.browserTools.map((spec) => ({ ...toAgUiTool(spec), metadata: { tether: { kind: spec.kind, required: spec.required ?? false } } })),
        browserToolPolicy: agent.browserToolPolicy,
        history: agent.history,
        model: { provider: agent.engine.provider, modelId: agent.engine.modelId },
        ...(welcome ? { welcome } : {}),
      },
    };
    return c.json(capabilities);
  });
}
