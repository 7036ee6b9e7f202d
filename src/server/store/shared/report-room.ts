import { TetherError } from "../../../protocol/index.ts";

/** How much one run may keep of browser reports: `RunStore.addReport` refuses what would pass it. */
export interface ReportCaps {
  /** Most reports one run keeps. */
  maxReportsPerRun: number;
  /** Most bytes of reports (as JSON, UTF-8) one run keeps, summed over its reports. */
  maxReportBytesPerRun: number;
}

/** What a run keeps of reports so far: kept beside them by every store, so a check never reads one. */
export interface ReportTotals {
  count: number;
  bytes: number;
}

/** A report's size as the caps count it: bytes of its JSON, as stored. */
export function reportBytes(json: string): number {
  return Buffer.byteLength(json, "utf8");
}

/** Refuses with `report_limit_exceeded` a report of `size` bytes that the run, holding `totals`, has no room for. */
export function checkReportRoom(runId: string, totals: ReportTotals, size: number, caps: ReportCaps): void {
  if (totals.count >= caps.maxReportsPerRun) {
    throw new TetherError(
      "report_limit_exceeded",
      `Run ${runId} already has ${totals.count} reports, the most one run keeps. Stop reporting on this run; report on the next one.`,
    );
  }
  if (totals.bytes + size > caps.maxReportBytesPerRun) {
    throw new TetherError(
      "report_limit_exceeded",
      `Run ${runId} keeps at most ${caps.maxReportBytesPerRun} bytes of reports and has ${totals.bytes}; this one (${size}) does not fit. Send shorter reports, or report on the next run.`,
    );
  }
}

/** Caps that let everything in: a report stored past the route (a test, an import) is still counted. */
export const NO_REPORT_CAPS: ReportCaps = { maxReportsPerRun: 2_147_483_647, maxReportBytesPerRun: Number.MAX_SAFE_INTEGER };
