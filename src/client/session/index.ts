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
// For the client benchmark's reference contender (through src/internal.ts), not the public client.
export { createRunEventReader } from "./run-event-reader.ts";
export { readRunEvents } from "./read-run-events.ts";
