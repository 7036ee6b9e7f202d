import { createAgentSession, type AgentSession } from "@tether-agent/tether/client";
import type { User } from "./api.ts";

/**
 * The demo's Workdesk agents: Tether's own, the same story served by an agent Tether stands in front of,
 * and as an ADK agent Tether runs.
 */
const AGENTS = ["workdesk", "workdesk-upstream", "workdesk-adk"] as const;

/** Which agent this tab talks to: `?agent=workdesk-upstream` or `?agent=workdesk-adk` picks another, kept for the tab's later pages. */
export function workdeskAgentId(): (typeof AGENTS)[number] {
  const asked = new URLSearchParams(location.search).get("agent");
  if (asked && (AGENTS as readonly string[]).includes(asked)) sessionStorage.setItem("workdesk:agent", asked);
  const kept = sessionStorage.getItem("workdesk:agent");
  return AGENTS.find((agent) => agent === kept) ?? "workdesk";
}

/** The thread a user's assistant continues, kept per user so a second window joins the same conversation. */
export function createWorkdeskSession(user: User, fresh = false): AgentSession {
  const agentId = workdeskAgentId();
  const key = agentId === "workdesk" ? `workdesk:thread:${user.id}` : `${agentId}:thread:${user.id}`;
  let threadId = fresh ? undefined : (localStorage.getItem(key) ?? undefined);
  if (!threadId) {
    threadId = crypto.randomUUID();
    localStorage.setItem(key, threadId);
  }
  return createAgentSession({
    api: "/api",
    agentId,
    threadId,
    drift: "warn",
    // One User Timing entry per browser call run at its TOOL_CALL_END: how fast the page acts (the browser tests read it).
    onToolDispatch: ({ toolCallId, toolName, endArrivedAt, dispatchedAt }) =>
      performance.measure("tether:tool-dispatch", { start: endArrivedAt, end: dispatchedAt, detail: { toolCallId, toolName } }),
  });
}
