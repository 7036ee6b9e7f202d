/**
 * The browser session: one conversation with one agent on one thread
 * (`createAgentSession`), its state and the words for what it shows.
 *
 * @module
 */
export { createAgentSession } from "./session.ts";
export type {
  AgentSession,
  AgentSessionOptions,
  RendererErrorReport,
  SessionState,
  SurfaceAction,
  ToolDispatchTiming,
  UnsentMessage,
} from "./session-types.ts";
export { sessionStatus, type SessionStatus } from "./session-status.ts";
