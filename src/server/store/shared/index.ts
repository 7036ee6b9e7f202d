/**
 * What every RunStore implementation (memory, SQLite, PostgreSQL) keeps alike, and what its callers
 * share: refusals in the same words, event pages, a lost run's end, report room, input history,
 * unasked approvals, a run's request summary. This folder's entry file: other folders import it, never
 * its modules.
 *
 * @module
 */
export { beginRunRefusals, movedOnMeanwhile } from "./begin-run-refusals.ts";
export { endedRunRefusal } from "./ended-run-refusal.ts";
export { decodePage, encodePage, pages } from "./event-pages.ts";
export { lostRunEvents } from "./lost-run-events.ts";
export { NO_REPORT_CAPS, checkReportRoom, reportBytes, type ReportCaps, type ReportTotals } from "./report-room.ts";
export { joinRunInput, splitRunInput, type StoredRunInput } from "./run-input-history.ts";
export { summarizeRunRequest, type RunRequestSummary } from "./run-request-summary.ts";
export { closeUnaskedApprovals } from "./unasked-approvals.ts";
