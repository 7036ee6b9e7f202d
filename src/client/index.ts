/**
 * The Tether browser SDK, on `@ag-ui/client`: a session per thread, browser
 * tools executed exactly once with honest outcomes, reconnect and restore.
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
} from "./agent-session.ts";
export {
  describeSurfaceClick,
  readSurfaceActivity,
  SURFACE_ACTION_TOOL,
  SURFACE_ACTIVITY_TYPE,
  SURFACE_MESSAGE_PREFIX,
  type SurfaceActivity,
  type SurfaceIssue,
} from "./surface-activity.ts";
export { sessionStatus, type SessionStatus } from "./session-status.ts";
export { createToolRegistry, type BrowserToolHandler, type ToolExecution, type ToolRegistry } from "./tool-registry.ts";
export { createToolRunner, type SettledCall, type ToolRunner } from "./tool-runner.ts";
export type { ToolActivity } from "./tool-activity-timeline.ts";
export { createCallJournal, type CallJournal, type JournalEntry } from "./call-journal.ts";
export { TetherHttpAgent, type TetherAgentConfig } from "./tether-agent.ts";
export { eventStream, type EventStreamOptions } from "./event-stream.ts";
export { readSse, readSseBatches, type SseMessage } from "./sse-reader.ts";
export { allowListOf, compareHandlers, compareTools, formatDrift, formatNotes, hasDrift, type DriftReport } from "./drift.ts";
export { errorFromResponse, errorFromRunError } from "./errors.ts";
