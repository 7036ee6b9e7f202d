/**
 * Browser tools in a session: the registry of what this page can do, the
 * runner that executes each call once at its TOOL_CALL_END (tracker,
 * executor, timeline, settlement) and the journal that remembers executed
 * calls across reloads.
 *
 * @module
 */
export { createToolRegistry, type BrowserToolHandler, type ToolExecution, type ToolRegistry } from "./tool-registry.ts";
export { createToolRunner, type SettledCall, type ToolRunner, type ToolRunnerOptions } from "./tool-runner.ts";
export type { CallToExecute } from "./tool-call-executor.ts";
export type { ToolActivity } from "./tool-activity-timeline.ts";
export { createCallJournal, type CallJournal, type JournalEntry } from "./call-journal.ts";
