import { createAgentSession, type AgentSession } from "@tether-agent/tether/client";
import type { DojoFeature } from "../../agent/index.ts";

const KEY_PREFIX = "dojo:thread:";

/**
 * A feature's conversation with the agent of the same id, kept per tab so a
 * reload comes back to it (thread, state and all); `fresh` starts a new one.
 */
export function createDojoSession(feature: DojoFeature, fresh: boolean): AgentSession {
  const key = `${KEY_PREFIX}${feature}`;
  let threadId = fresh ? undefined : (sessionStorage.getItem(key) ?? undefined);
  if (!threadId) {
    threadId = crypto.randomUUID();
    sessionStorage.setItem(key, threadId);
  }
  return createAgentSession({ api: "/api", agentId: feature, threadId, drift: "warn" });
}

/** Forgets every feature's conversation: another person signing in in this tab starts their own. */
export function forgetDojoThreads(): void {
  for (const key of Object.keys(sessionStorage)) if (key.startsWith(KEY_PREFIX)) sessionStorage.removeItem(key);
}
