/**
 * The Tether runtime for Node: a standard AG-UI server with checked browser
 * tools, durable threads, reconnect and the offline playbook model. Storage,
 * the hub across instances, Node listening and the `(Request) → Response`
 * handlers are adapters, each a subpath of its own (`/sqlite`, `/pg`,
 * `/redis`, `/node`, `/fetch`) with its driver an optional peer dependency.
 *
 * @module
 */
export { createTetherApp, type TetherApp, type TetherAppOptions } from "./app.ts";
export type { TelemetryOptions } from "./telemetry/telemetry-options.ts";
export { TRACER_NAME } from "./telemetry/trace-runs.ts";
export { defineAgent, type Agent, type AgentDefinition, type BrowserToolPolicy } from "./agent/define-agent.ts";
export type { HistoryMode } from "./history/history-mode.ts";
export { readSignedToken, signToken } from "./auth/signed-token.ts";
export type { Authenticate, TetherUser } from "./auth/user.ts";
export { errorHandler, notFoundHandler } from "./http/errors.ts";
export { HTTP_STATUS } from "./http/error-status.ts";
export { readJsonBody } from "./http/read-json-body.ts";
export type { CanReadRecord, RecordScope } from "./http/owned.ts";
export { auth, type AuthEnv } from "./http/middleware/auth.ts";
export { isJsonContentType, requireJson } from "./http/middleware/require-json.ts";
export { sameOrigin, type SameOriginOptions } from "./http/middleware/same-origin.ts";
export type { ApiOptions } from "./http/api-options.ts";
export { DEFAULT_RECORD_PAGE_LIMITS, type RecordPageLimits } from "./http/record-page.ts";
export { DEFAULT_REPORT_LIMITS, type ReportLimits } from "./http/report-limits.ts";
export { consoleLogger, silentLogger, type Logger } from "./http/logger.ts";
export { createPlaybookModel, PLAYBOOK_PROVIDER, type Playbook, type PlaybookModelOptions } from "./models/playbook/playbook-model.ts";
export type { PlaybookConversation, PlaybookResult, PlaybookTool } from "./models/playbook/conversation.ts";
export { turnParts, type ScriptedTurn } from "./models/playbook/turn-parts.ts";
export { providerFetch } from "./models/provider-fetch.ts";
export { createCountingIds, createRandomIds, type IdSource } from "./run/ids.ts";
export { DEFAULT_RETRY, type RetryPolicy } from "./agent/retry-policy.ts";
export type { RunHub, RunChannel, SequencedEvent } from "./hub/hub.ts";
export type { Runner } from "./run/runner.ts";
export { createMemoryRunStore } from "./store/memory.ts";
export type {
  BeginRun,
  CommitStep,
  FinishRun,
  PendingToolCall,
  RunLogEntry,
  StoredRun,
  RunRequestSummary,
  RunReport,
  RunStatus,
  RunStore,
  StoredEvent,
  StoredInterrupt,
  StoredThread,
} from "./store/port.ts";
export { loadToolCatalog, type ToolDeclaration, type ToolExecutor, type ToolExecutors } from "./tools/catalog.ts";
export { defineTool, type ServerTool, type ToolContext, type ToolDefinition } from "./tools/define-tool.ts";
// Generated UI: the validator loads @a2ui/web_core when first used, so it is not re-exported here (the import would cost every app a second).
export { A2UI_ACTIVITY_TYPE, RENDER_A2UI } from "./genui/surfaces/surface-lifecycle.ts";
export { A2UI_SCHEMA_CONTEXT_DESCRIPTION, type ClientCatalog } from "./genui/surfaces/client-catalogs.ts";
export { BASIC_CATALOG_ID, MIDDLEWARE_BASIC_CATALOG_ID } from "./genui/catalog-ids.ts";
export type { A2uiOperation, SurfaceCatalog, SurfaceError, SurfaceErrorCode, SurfaceValidation } from "./genui/validate-surface.ts";
