/**
 * Server tools: defining them, loading a tool catalog, the tool set a run offers, running a call. This
 * folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export { loadToolCatalog, type ToolDeclaration, type ToolExecutor, type ToolExecutors } from "./catalog.ts";
export { assertToolName, defineTool, type ServerTool, type ToolContext, type ToolDefinition } from "./define-tool.ts";
export { toNamedApprovals, type ApprovalByName } from "./named-approvals.ts";
export { errorContent, runServerTool } from "./run-server-tool.ts";
export { sendToolResult } from "./send-tool-result.ts";
export type { ToolCall } from "./tool-call.ts";
export type { ToolScope } from "./tool-scope.ts";
export { buildToolSet, type RunTool, type RunToolApproval, type ToolSet } from "./tool-set.ts";
