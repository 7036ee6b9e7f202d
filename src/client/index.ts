/**
 * The Tether browser SDK, on `@ag-ui/client`: a session per thread, browser
 * tools executed exactly once with honest outcomes, reconnect and restore.
 *
 * @module
 */
export {
  createAgentSession,
  sessionStatus,
  type AgentSession,
  type AgentSessionOptions,
  type RendererErrorReport,
  type SessionState,
  type SessionStatus,
  type SurfaceAction,
  type ToolDispatchTiming,
  type UnsentMessage,
} from "./session/index.ts";
export {
  describeSurfaceClick,
  readSurfaceActivity,
  SURFACE_ACTION_TOOL,
  SURFACE_ACTIVITY_TYPE,
  SURFACE_MESSAGE_PREFIX,
  type SurfaceActivity,
  type SurfaceIssue,
} from "./surface-activity.ts";
export {
  createCallJournal,
  createToolRegistry,
  createToolRunner,
  type BrowserToolHandler,
  type CallJournal,
  type JournalEntry,
  type SettledCall,
  type ToolActivity,
  type ToolExecution,
  type ToolRegistry,
  type ToolRunner,
  type ToolRunnerOptions,
  type CallToExecute,
} from "./tools/index.ts";
export { eventStream, readSse, readSseBatches, TetherHttpAgent, type EventStreamOptions, type SseMessage, type TetherAgentConfig } from "./transport/index.ts";
export { allowListOf, compareHandlers, compareTools, formatDrift, formatNotes, hasDrift, type DriftReport } from "./drift.ts";
export { errorFromResponse, errorFromRunError, type SessionError } from "./errors.ts";
export type { JsonPatchOperation, SharedState, StateConflict } from "./state/index.ts";
