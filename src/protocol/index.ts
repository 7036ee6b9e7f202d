/**
 * Tether's vocabulary on top of `@ag-ui/core`: errors, tool outcomes, run
 * triggers and browser tool specs. Event types come from `@ag-ui/core` and are
 * never re-declared here.
 *
 * @module
 */
export { TETHER_ERROR_CODES, TetherError, isTetherError, isTetherErrorCode, toTetherError, type TetherErrorCode, type TetherErrorOptions } from "./errors.ts";
export { ID_PATTERN, isValidId } from "./ids.ts";
export { AgentWelcomeSchema, readWelcome, type AgentWelcome } from "./welcome.ts";
export { formatIssues, type SchemaIssue } from "./format-issues.ts";
export { TOOL_APPROVAL, approvalResponseSchema, type ApprovalGrant, type ApprovalRefusal, type ApprovalResponse } from "./approval.ts";
export {
  TOOL_OUTCOME_REASONS,
  TOOL_OUTCOME_STATUSES,
  ToolOutcomeSchema,
  noResultOutcome,
  parseToolOutcome,
  type ToolOutcome,
  type ToolOutcomeReason,
  type ToolOutcomeStatus,
} from "./outcome.ts";
export { diffSchemas, formatSchemaDiff, splitSchemaDiff, type SchemaDifference } from "./schema-diff.ts";
export { defineBrowserTool, toAgUiTool, type BrowserToolArguments, type BrowserToolKind, type BrowserToolSpec } from "./tool-spec.ts";
export {
  isStandardSchema,
  jsonSchema,
  toJsonSchema,
  type ArgumentsOf,
  type InputArgumentsOf,
  type JsonSchema,
  type StandardJsonSchema,
  type ToolParameters,
  type TypedJsonSchema,
} from "./tool-arguments.ts";
export { createArgumentChecker, type ArgumentChecker, type ArgumentsCheck } from "./argument-checker.ts";
export { TRIGGER_KINDS, TriggerSchema, type Trigger, type TriggerKind } from "./trigger.ts";
export { regeneratePoint } from "./regenerate-point.ts";
export { readTetherProps, type TetherForwardedProps } from "./forwarded-props.ts";
export type * from "./run-record.ts";
export { cutPointers, markCut } from "./record-cuts.ts";
export {
  RUN_RECORD_FORMATS,
  TRIGGER_LABELS,
  approvalsOf,
  assertRunRecord,
  browserOutcomeOf,
  describeAnswer,
  describeCut,
  isCut,
  keptText,
  readRunRecord,
  type AskedApproval,
  type BrowserOutcome,
  type KeptText,
} from "./run-record-reading.ts";
