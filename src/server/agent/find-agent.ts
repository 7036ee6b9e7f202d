import { TetherError } from "../../protocol/index.ts";
import type { TetherUser } from "../auth/index.ts";
import type { Agent } from "./define-agent.ts";

/** The agent a request names, if this user may use it: `agent_not_found` (404) or `forbidden` (403) otherwise. */
export function findAgentFor(agents: Map<string, Agent>, agentId: string, user: TetherUser): Agent {
  const agent = agents.get(agentId);
  if (!agent) throw new TetherError("agent_not_found", `There is no agent "${agentId}".`);
  if (!agent.allowUser(user)) throw new TetherError("forbidden", `Agent "${agentId}" is not available to user "${user.id}".`);
  return agent;
}
