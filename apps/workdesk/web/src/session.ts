import { createAgentSession, type AgentSession } from "@tether-agent/tether/client";
import type { User } from "./api.ts";

/** The thread a user's assistant continues, kept per user so a second window joins the same conversation. */
export function createWorkdeskSession(user: User, fresh = false): AgentSession {
  const key = `workdesk:thread:${user.id}`;
  let threadId = fresh ? undefined : (localStorage.getItem(key) ?? undefined);
  if (!threadId) {
    threadId = crypto.randomUUID();
    localStorage.setItem(key, threadId);
  }
  return createAgentSession({
    api: "/api",
    agentId: "workdesk",
    threadId,
    drift: "warn",
    // One User Timing entry per browser call run at its TOOL_CALL_END: how fast the page acts (the browser tests read it).
    onToolDispatch: ({ toolCallId, toolName, endArrivedAt, dispatchedAt }) =>
      performance.measure("tether:tool-dispatch", { start: endArrivedAt, end: dispatchedAt, detail: { toolCallId, toolName } }),
  });
}
