/**
 * One agent's endpoints as plain `(Request) → Response` functions, for any
 * fetch-style server (Next.js route handlers, a Hono or Express app of yours).
 *
 * @module
 */
export { createAgentHandlers, type AgentHandlers, type AgentHandlersOptions } from "./agent-handlers.ts";
