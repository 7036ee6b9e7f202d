/**
 * The Tether runtime for Node: a standard AG-UI server with checked browser
 * tools, durable threads, reconnect and the offline playbook model. Beside it:
 * `/store` (the store port and the memory store), `/genui` (generated UI),
 * the adapters (`/sqlite`, `/pg`, `/redis`, `/node`, `/fetch`), each with its
 * driver an optional peer dependency, and `/testing`.
 *
 * @module
 */
export { createTetherApp, type TetherApp, type TetherAppOptions } from "./app.ts";
export { defineAgent, type Agent, type AgentDefinition, type BrowserToolPolicy, type RetryPolicy } from "./agent/index.ts";
export type { HistoryMode } from "./history/index.ts";
export {
  defineTool,
  type ServerTool,
  type ToolContext,
  type ToolDefinition,
  loadToolCatalog,
  type ToolDeclaration,
  type ToolExecutor,
  type ToolExecutors,
  type ApprovalByName,
} from "./tools/index.ts";
// Shared state: `defineAgent({ state })`, typed with defineState; tools change it through `context.state`.
export { createRunState, defineState, type AgentStateOption, type RunState, type StateDefinition } from "./state/index.ts";
// `defineAgent({ upstream })`: an AG-UI agent Tether stands in front of, and what bounds it.
export type { UpstreamAgentOption, UpstreamEndpoint, UpstreamLimits, RunnableAgent } from "./upstream/index.ts";
export { type Authenticate, type TetherUser, readSignedToken, signToken } from "./auth/index.ts";
// For an app's own routes beside the API: the same guards, body reading and error answers.
export { auth, type AuthEnv, requireJson, sameOrigin, type SameOriginOptions } from "./http/middleware/index.ts";
export {
  readJsonBody,
  errorHandler,
  notFoundHandler,
  HTTP_STATUS,
  type ApiOptions,
  type RecordScope,
  type RecordPageLimits,
  type ReportLimits,
  consoleLogger,
  silentLogger,
  type Logger,
} from "./http/index.ts";
export { type TelemetryOptions, TRACER_NAME } from "./telemetry/index.ts";
export type { IdSource, Runner } from "./run/index.ts";
// The fan-out, for TetherApp's `hub` and its `hub` option (`redisHub` from /redis is one).
export type { HubLogger, RunChannel, RunHub, RunHubFactory } from "./hub/index.ts";
export { providerFetch, type LanguageModelV4 } from "./models/index.ts";
export {
  createPlaybookModel,
  PLAYBOOK_PROVIDER,
  type Playbook,
  type PlaybookModelOptions,
  type PlaybookConversation,
  type PlaybookResult,
  type PlaybookTool,
  type ScriptedTurn,
} from "./models/playbook/index.ts";
