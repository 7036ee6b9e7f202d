/**
 * The HTTP layer's shared parts: error answers and statuses, body reading, limits, the logger, who may
 * read a record. This folder's entry file: other folders import it, never its modules.
 *
 * @module
 */
export type { ApiOptions } from "./api-options.ts";
export { HTTP_STATUS } from "./error-status.ts";
export { errorHandler, notFoundHandler } from "./errors.ts";
export { consoleLogger, silentLogger, type Logger } from "./logger.ts";
export type { CanReadRecord, RecordScope } from "./owned.ts";
export { readJsonBody } from "./read-json-body.ts";
export type { RecordPageLimits } from "./record-page.ts";
export type { ReportLimits } from "./report-limits.ts";
