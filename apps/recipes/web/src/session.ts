import type { Context } from "@ag-ui/core";
import { createAgentSession, type AgentSession } from "@tether-agent/tether/client";
import type { User } from "./api.ts";

/**
 * The conversation a person's assistant continues, kept per person so a
 * reload comes back to it; `fresh` starts a new one (a profile switch, or
 * "New conversation"). `context` says what the page shows as each run starts.
 */
export function createRecipesSession(user: User, options: { fresh: boolean; context: () => Context[] }): AgentSession {
  const key = `recipes:thread:${user.id}`;
  let threadId = options.fresh ? undefined : (localStorage.getItem(key) ?? undefined);
  if (!threadId) {
    threadId = crypto.randomUUID();
    localStorage.setItem(key, threadId);
  }
  return createAgentSession({ api: "/api", agentId: "recipes", threadId, drift: "warn", context: options.context });
}
